package dev.mortar.benchmark.buffer;

import dev.mortar.serde.Operation;
import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.core.memory.MemorySegmentFactory;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinarySection;
import org.apache.flink.table.data.binary.BinaryStringData;

/**
 * A yardstick for {@code BucketBuffer}, not a buffer to use: the least work a page buffer can do to
 * hold what a {@code BucketBuffer} entry holds. Each record is the same 16-byte header (row word:
 * superseded bit and row length; key word: operation, arity and key length; ordering value)
 * followed by key and row bytes, padded to 8, as in {@code RecordEntryLayout}. Everything a real
 * buffer needs besides is left out: a page is allocated when first needed and kept, with no pool
 * and no budget; a record that does not fit in the rest of a page starts the next one, so nothing
 * spans pages and a record larger than a page is refused; no de-dup; no check that the buffer was
 * changed under a reader. The reader walks the pages with an int position and points one reused key
 * and row at each record, as {@code BufferCursor} does.
 *
 * <p>What {@code BucketBuffer} costs on top of this is its bookkeeping: the pool and budget, the
 * all-or-nothing append, entries across pages, the cursor's checks (rfc/0002).
 */
final class MinimalEntryBuffer {
  private static final int HEADER_BYTES = 16;

  private final int pageSize;
  private final MemorySegment[] pages;

  /** Bytes used in each page, for the reader to know where a page's records end. */
  private final int[] pageEnds;

  private int writePage;
  private int writePosition;

  private final MemorySegment[] readPage = new MemorySegment[1];
  private final BinaryStringData key = new BinaryStringData(new MemorySegment[1], 0, 0);
  private final BinaryRowData row;
  private int readPageIndex;
  private int readPosition;
  private long orderingValue;
  private Operation operation;

  MinimalEntryBuffer(int pageSize, int maxPages, int arity) {
    this.pageSize = pageSize;
    pages = new MemorySegment[maxPages];
    pages[0] = MemorySegmentFactory.allocateUnpooledSegment(pageSize);
    pageEnds = new int[maxPages];
    row = new BinaryRowData(arity);
  }

  /**
   * Appends a record whose key and row lie in one heap segment each.
   *
   * @throws IllegalStateException when the pages are full or the record is larger than a page
   */
  void append(BinaryStringData key, long orderingValue, Operation operation, BinaryRowData row) {
    append(key.getBinarySection(), orderingValue, operation, row);
  }

  /**
   * The same, with the key's bytes read from its binary section, as {@code BucketBuffer} reads
   * them: {@code BinaryStringData}'s own getters check at every call whether the string is still
   * only a Java string.
   */
  private void append(
      BinarySection key, long orderingValue, Operation operation, BinaryRowData row) {
    int keyLength = key.getSizeInBytes();
    int rowLength = row.getSizeInBytes();
    int length = entryLength(keyLength, rowLength);
    MemorySegment page = pages[writePage];
    if (writePosition + length > pageSize) {
      if (length > pageSize || writePage + 1 == pages.length) {
        throw new IllegalStateException("minimal buffer full or record too large: " + length);
      }
      writePage++;
      writePosition = 0;
      if (pages[writePage] == null) {
        pages[writePage] = MemorySegmentFactory.allocateUnpooledSegment(pageSize);
      }
      page = pages[writePage];
    }
    int at = writePosition;
    page.putInt(at, rowLength);
    page.putInt(at + 4, keyLength | row.getArity() << 16 | operation.code() << 30);
    page.putLong(at + 8, orderingValue);
    // heap to heap with System.arraycopy, as BucketBuffer copies (its SegmentCopy)
    MemorySegment keySegment = key.getSegments()[0];
    byte[] target = page.getArray();
    if (keySegment == row.getSegments()[0] && key.getOffset() + keyLength == row.getOffset()) {
      System.arraycopy(
          keySegment.getArray(), key.getOffset(), target, at + HEADER_BYTES, keyLength + rowLength);
    } else {
      System.arraycopy(
          keySegment.getArray(), key.getOffset(), target, at + HEADER_BYTES, keyLength);
      System.arraycopy(
          row.getSegments()[0].getArray(),
          row.getOffset(),
          target,
          at + HEADER_BYTES + keyLength,
          rowLength);
    }
    writePosition += length;
    pageEnds[writePage] = writePosition;
  }

  /** Starts reading from the first record. */
  void rewind() {
    readPageIndex = 0;
    readPosition = 0;
  }

  /** Moves to the next live record; {@code false} when there is none. */
  boolean next() {
    while (true) {
      if (readPosition >= pageEnds[readPageIndex]) {
        if (readPageIndex >= writePage) {
          return false;
        }
        readPageIndex++;
        readPosition = 0;
        continue;
      }
      MemorySegment page = pages[readPageIndex];
      int at = readPosition;
      int rowWord = page.getInt(at);
      int keyWord = page.getInt(at + 4);
      int keyLength = keyWord & 0xFFFF;
      int rowLength = rowWord & Integer.MAX_VALUE;
      readPosition = at + entryLength(keyLength, rowLength);
      if (rowWord < 0) { // superseded
        continue;
      }
      orderingValue = page.getLong(at + 8);
      if (((keyWord >>> 16) & 0x3FFF) != row.getArity()) {
        throw new IllegalStateException("a record of another arity at " + at);
      }
      operation = Operation.ofCode((byte) (keyWord >>> 30));
      readPage[0] = page;
      key.setJavaObject(null);
      key.getBinarySection().pointTo(readPage, at + HEADER_BYTES, keyLength);
      row.pointTo(readPage, at + HEADER_BYTES + keyLength, rowLength);
      return true;
    }
  }

  BinaryStringData key() {
    return key;
  }

  long orderingValue() {
    return orderingValue;
  }

  Operation operation() {
    return operation;
  }

  BinaryRowData row() {
    return row;
  }

  /** Bytes of an entry: header, key and row, padded to 8. */
  private static int entryLength(int keyLength, int rowLength) {
    return (HEADER_BYTES + keyLength + rowLength + 7) & -8;
  }

  void clear() {
    for (int i = 0; i <= writePage; i++) {
      pageEnds[i] = 0;
    }
    writePage = 0;
    writePosition = 0;
    rewind();
  }
}
