package dev.mortar.buffer;

import static dev.mortar.buffer.RecordEntryLayout.KEY_OFFSET;
import static dev.mortar.buffer.RecordEntryLayout.ORDERING_OFFSET;
import static dev.mortar.buffer.RecordEntryLayout.ROW_WORD_OFFSET;

import dev.mortar.serde.Operation;
import java.util.ConcurrentModificationException;
import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinaryStringData;

/**
 * Walks the live entries of a {@link BucketBuffer} in the order they were written. {@link #key()}
 * and {@link #row()} return the same objects after every {@link #next()}, re-pointed at the current
 * entry in place: an entry that lies in one page (nearly all) through one reused page array, the
 * others through {@link PageRangeView}s, where a key that lies in one page and a row whose
 * fixed-length part does are read from the pages, a row spanning pages from the pages it spans.
 * Only a key that spans pages, or a row whose fixed-length part does, is copied to a scratch area
 * that grows to the largest such record and is then reused. Nothing is allocated per record.
 *
 * <p>Between entries the cursor keeps the page it reads, its position there and where the page's
 * entries end ({@link #readLimit}), so an entry that lies in the page is read with no address
 * translation; only an entry that starts a page or spans pages goes by its address.
 */
public final class BufferCursor {
  private final String ownerName;
  private final BufferEntries entries;
  private final PageList data;

  /** The page of an entry that lies in one page, for {@link #key} and {@link #row} to read. */
  private final MemorySegment[] entryPage = new MemorySegment[1];

  private final PageRangeView keyView = new PageRangeView();
  private final PageRangeView rowView = new PageRangeView();
  private final BinaryStringData key = new BinaryStringData(new MemorySegment[1], 0, 0);
  private BinaryRowData row = new BinaryRowData(0);

  /** The null bits and slots of {@link #row}: the part a {@code BinaryRowData} reads in place. */
  private int fixedPartLength = BinaryRowData.calculateFixPartSizeInBytes(0);

  private long end;

  /**
   * The page that holds the next entry, when {@link #readLimit} is past {@link #readOffset}; null
   * when the entries end there.
   */
  private MemorySegment readPage;

  /** The address of {@link #readPage}'s first byte. */
  private long readPageStart;

  /** The next entry's offset in {@link #readPage}: its address is {@link #nextEntry()}. */
  private int readOffset;

  /** Where the entries in {@link #readPage} end: its size, or less where the last entry ends. */
  private int readLimit;

  private int expectedChangeCount;
  private boolean onRecord;
  private long orderingValue;
  private Operation operation;

  BufferCursor(String ownerName, BufferEntries entries) {
    this.ownerName = ownerName;
    this.entries = entries;
    this.data = entries.pages();
  }

  void reset(long end, int changeCount) {
    this.end = end;
    this.expectedChangeCount = changeCount;
    this.onRecord = false;
    moveTo(0);
  }

  /** Places the cursor on the live entry at {@code entry}, as if {@link #next()} had reached it. */
  void placeOn(long entry) {
    moveTo(entry);
    readLimit = readOffset; // read the entry by its address: it may span pages
    if (!nextAcrossPages()) {
      throw new IllegalStateException(
          "entry " + entry + " of buffer " + ownerName + " is not live");
    }
    onRecord = true;
  }

  /** Moves to the next record; {@code false} when there is none. */
  public boolean next() {
    if (entries.changeCount() != expectedChangeCount) {
      throw new ConcurrentModificationException(
          "buffer " + ownerName + " changed since cursor() was called");
    }
    while (true) {
      int at = readOffset;
      int room = readLimit - at;
      if (room >= KEY_OFFSET) { // the header lies in the read page
        MemorySegment page = readPage;
        long headerWords = page.getLong(at + ROW_WORD_OFFSET);
        int rowWord = RecordEntryLayout.rowWordOf(headerWords);
        int keyWord = RecordEntryLayout.keyWordOf(headerWords);
        int keyLength = RecordEntryLayout.keyLength(keyWord);
        int rowLength = RecordEntryLayout.rowLength(rowWord);
        long length = RecordEntryLayout.entryLength(keyLength, rowLength);
        if (length <= room) { // and so does the entry
          readOffset = at + (int) length;
          if (!RecordEntryLayout.isLive(rowWord)) {
            continue;
          }
          orderingValue = page.getLong(at + ORDERING_OFFSET);
          setOperationAndArity(keyWord);
          entryPage[0] = page;
          key.setJavaObject(null);
          key.getBinarySection().pointTo(entryPage, at + KEY_OFFSET, keyLength);
          row.pointTo(entryPage, at + RecordEntryLayout.rowOffset(keyLength), rowLength);
          return onRecord = true;
        }
      }
      if (nextEntry() >= end) {
        return onRecord = false;
      }
      if (room == 0) { // the last entry ended at its page's end
        moveTo(nextEntry());
      } else if (nextAcrossPages()) {
        return onRecord = true;
      }
    }
  }

  /**
   * Reads the entry at {@link #nextEntry()}, which spans pages (its header may too, though no
   * header field does), and moves past it.
   *
   * @return whether the entry is live, the cursor now on it
   */
  private boolean nextAcrossPages() {
    long entry = nextEntry();
    long headerWords = data.getLong(entry + ROW_WORD_OFFSET);
    int rowWord = RecordEntryLayout.rowWordOf(headerWords);
    int keyWord = RecordEntryLayout.keyWordOf(headerWords);
    int keyLength = RecordEntryLayout.keyLength(keyWord);
    int rowLength = RecordEntryLayout.rowLength(rowWord);
    moveTo(entry + RecordEntryLayout.entryLength(keyLength, rowLength));
    if (!RecordEntryLayout.isLive(rowWord)) {
      return false;
    }
    orderingValue = data.getLong(entry + ORDERING_OFFSET);
    setOperationAndArity(keyWord);
    key.setJavaObject(null);
    MemorySegment[] keySegments = keyView.point(data, entry + KEY_OFFSET, keyLength, keyLength);
    key.getBinarySection().pointTo(keySegments, keyView.offset(), keyLength);
    long rowAddress = entry + RecordEntryLayout.rowOffset(keyLength);
    MemorySegment[] rowSegments = rowView.point(data, rowAddress, rowLength, fixedPartLength);
    row.pointTo(rowSegments, rowView.offset(), rowLength);
    return true;
  }

  /** The address of the next entry. */
  private long nextEntry() {
    return readPageStart + readOffset;
  }

  /** Makes {@code address} the next entry's and finds its page. */
  private void moveTo(long address) {
    readOffset = data.offsetIn(address);
    readPageStart = address - readOffset;
    if (address >= end) {
      readPage = null;
      readLimit = readOffset;
      return;
    }
    readPage = data.pageOf(address);
    readLimit = (int) Math.min(readPage.size(), end - readPageStart);
  }

  /** The current record's key; the same object after every {@link #next()}. */
  public BinaryStringData key() {
    checkOnRecord();
    return key;
  }

  public long orderingValue() {
    checkOnRecord();
    return orderingValue;
  }

  public Operation operation() {
    checkOnRecord();
    return operation;
  }

  /** The current record's row; the same object after every {@link #next()} of the same arity. */
  public BinaryRowData row() {
    checkOnRecord();
    return row;
  }

  /** Takes the operation and arity from the entry's key word. */
  private void setOperationAndArity(int keyWord) {
    operation = Operation.ofCode(RecordEntryLayout.operationCode(keyWord));
    int arity = RecordEntryLayout.arity(keyWord);
    if (row.getArity() != arity) {
      row = new BinaryRowData(arity);
      fixedPartLength = BinaryRowData.calculateFixPartSizeInBytes(arity);
    }
  }

  private void checkOnRecord() {
    if (!onRecord) {
      throw new IllegalStateException("cursor is not on a record: call next() first");
    }
  }
}
