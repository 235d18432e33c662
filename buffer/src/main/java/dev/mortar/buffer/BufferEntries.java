package dev.mortar.buffer;

import static dev.mortar.buffer.RecordEntryLayout.KEY_OFFSET;
import static dev.mortar.buffer.RecordEntryLayout.KEY_WORD_OFFSET;
import static dev.mortar.buffer.RecordEntryLayout.ORDERING_OFFSET;
import static dev.mortar.buffer.RecordEntryLayout.ROW_WORD_OFFSET;

import dev.mortar.serde.Operation;
import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinarySection;

/**
 * The record entries of one {@link BucketBuffer} ({@link RecordEntryLayout}), written one after
 * another from address 0 of a {@link PageList}. Every de-duplication mode writes, overwrites and
 * supersedes its entries here; nothing is allocated per entry.
 *
 * <p>Invariants:
 *
 * <ul>
 *   <li>The entries fill {@code [0, end())} without gaps, each starting at a multiple of {@link
 *       RecordEntryLayout#ALIGNMENT}; the pages hold at least those bytes.
 *   <li>{@link #liveCount()} is the number of entries whose superseded bit is clear.
 *   <li>{@link #changeCount()} grows with every write (append, overwrite, supersede, clear); a
 *       {@link BufferCursor} compares it to notice a change under it.
 *   <li>Appending is all or nothing: {@link #append} takes pages only once the pool has promised
 *       every page the entry (and what the caller adds) needs; when it cannot, nothing changed.
 *   <li>The write position is {@link #writePage}, the address of its first byte and the offset of
 *       {@link #end()} in it. When {@link #end()} starts a page not held yet (after {@link #clear},
 *       or when the last entry ended at a page's end) the write page has no bytes left, so {@link
 *       #appendInWritePage} declines: that is what keeps a cleared or released buffer's appends,
 *       which skip its usability check on that path, from writing.
 * </ul>
 */
final class BufferEntries {
  private final PagePool pool;
  private final PageList pages;

  /**
   * The page the next entry goes to, when {@link #writeLimit} is past {@link #writeOffset}; null
   * when no page is held there yet.
   */
  private MemorySegment writePage;

  /** The address of {@link #writePage}'s first byte. */
  private long writePageStart;

  /** The next entry's offset in {@link #writePage}: its address is {@link #end()}. */
  private int writeOffset;

  /** {@link #writePage}'s size; {@link #writeOffset} when no page is held there. */
  private int writeLimit;

  private int liveCount;
  private int changeCount;

  BufferEntries(PagePool pool, BucketBuffer owner) {
    this.pool = pool;
    this.pages = new PageList(pool, owner);
  }

  /** The pages the entries are in, for reading them and comparing keys. */
  PageList pages() {
    return pages;
  }

  int pageCount() {
    return pages.pageCount();
  }

  /** Entries whose superseded bit is clear. */
  int liveCount() {
    return liveCount;
  }

  int changeCount() {
    return changeCount;
  }

  /** The address the next entry goes to: the end of the entries. */
  long end() {
    return writePageStart + writeOffset;
  }

  /**
   * The common case of an append: the entry fits in the rest of the write page, and key and row lie
   * back to back in one segment (a shuffle row's wire record). Then it needs no page from the pool
   * and no address translation: a header and one copy. Keys and arities the header cannot hold are
   * left to the general path, which rejects them.
   *
   * @return whether the record was appended; if not, nothing changed
   */
  boolean appendInWritePage(
      BinarySection key, long orderingValue, Operation operation, BinaryRowData row) {
    int keyLength = key.getSizeInBytes();
    int rowLength = row.getSizeInBytes();
    int arity = row.getArity();
    int keyOffset = key.getOffset();
    MemorySegment[] source = key.getSegments();
    long entryLength = RecordEntryLayout.entryLength(keyLength, rowLength);
    int at = writeOffset;
    if (entryLength > writeLimit - at
        || (keyLength | arity) > RecordEntryLayout.MAX_ARITY
        || source != row.getSegments()
        || keyOffset + keyLength != row.getOffset()
        || (long) row.getOffset() + rowLength > source[0].size()) {
      return false;
    }
    MemorySegment page = writePage;
    writeHeader(page, at, keyLength, rowLength, orderingValue, operation, arity);
    SegmentCopy.copy(source[0], keyOffset, page, at + KEY_OFFSET, keyLength + rowLength);
    writeOffset = at + (int) entryLength;
    liveCount++;
    changeCount++;
    return true;
  }

  /**
   * Writes a new entry of {@code entryLength} bytes at the end, if the pool can give the pages it
   * needs plus {@code extraPages} that the caller takes right after.
   *
   * @return the entry's address, or -1 when the pages are not available (nothing changed)
   */
  long append(
      long entryLength,
      int extraPages,
      BinarySection key,
      long orderingValue,
      Operation operation,
      BinaryRowData row) {
    long entry = end();
    int missing = pages.pagesMissingFor(entry + entryLength);
    if (!pool.canAcquire(missing + extraPages)) {
      return -1;
    }
    pages.addPages(missing);
    writeEntry(entry, entryLength, key, orderingValue, operation, row);
    moveWritePositionTo(entry + entryLength);
    liveCount++;
    changeCount++;
    return entry;
  }

  /** Writes a record over the live entry at {@code entry}, which has the same length. */
  void overwrite(
      long entry,
      long entryLength,
      BinarySection key,
      long orderingValue,
      Operation operation,
      BinaryRowData row) {
    writeEntry(entry, entryLength, key, orderingValue, operation, row);
    changeCount++;
  }

  /** Sets the superseded bit of the live entry at {@code entry}: a cursor skips it from now on. */
  void supersede(long entry) {
    long rowWord = entry + ROW_WORD_OFFSET;
    pages.putInt(rowWord, RecordEntryLayout.superseded(pages.getInt(rowWord)));
    liveCount--;
    changeCount++;
  }

  boolean isLive(long entry) {
    return RecordEntryLayout.isLive(pages.getInt(entry + ROW_WORD_OFFSET));
  }

  long orderingValueAt(long entry) {
    return pages.getLong(entry + ORDERING_OFFSET);
  }

  /**
   * Whether a record of {@code orderingValue} that arrived after the live entry at {@code entry}
   * (of the same key) loses to it: a smaller ordering value loses; on equal values the later
   * arrival wins.
   */
  boolean losesTo(long orderingValue, long entry) {
    return orderingValue < orderingValueAt(entry);
  }

  /** The length of the entry at {@code entry}, whose key has {@code keyLength} bytes. */
  long entryLengthAt(long entry, int keyLength) {
    int rowLength = RecordEntryLayout.rowLength(pages.getInt(entry + ROW_WORD_OFFSET));
    return RecordEntryLayout.entryLength(keyLength, rowLength);
  }

  /** Gives every page back to the pool; no entries are left. */
  void clear() {
    pages.releaseAll();
    moveWritePositionTo(0);
    liveCount = 0;
    changeCount++;
  }

  /**
   * Writes the header, key and row of an entry of {@code entryLength} bytes at {@code entry}. An
   * entry that lies in one page (nearly all) whose key and row lie back to back in one segment (a
   * shuffle row's wire record) is written through one page lookup: three header words and one copy.
   */
  private void writeEntry(
      long entry,
      long entryLength,
      BinarySection key,
      long orderingValue,
      Operation operation,
      BinaryRowData row) {
    int keyLength = key.getSizeInBytes();
    int rowLength = row.getSizeInBytes();
    MemorySegment page = pages.inOnePage(entry, (int) entryLength) ? pages.pageOf(entry) : null;
    if (page != null) {
      writeHeader(
          page,
          pages.offsetIn(entry),
          keyLength,
          rowLength,
          orderingValue,
          operation,
          row.getArity());
    } else {
      pages.putInt(entry + ROW_WORD_OFFSET, rowLength);
      pages.putInt(
          entry + KEY_WORD_OFFSET,
          RecordEntryLayout.keyWord(keyLength, row.getArity(), operation.code()));
      pages.putLong(entry + ORDERING_OFFSET, orderingValue);
    }
    MemorySegment[] source = key.getSegments();
    int length = keyLength + rowLength;
    if (source == row.getSegments() && key.getOffset() + keyLength == row.getOffset()) {
      // key and row lie back to back, as in a shuffle row's wire record: one copy for both
      if (page != null) {
        pages.copyFrom(source, key.getOffset(), page, entry + KEY_OFFSET, length);
      } else {
        pages.copyFrom(source, key.getOffset(), entry + KEY_OFFSET, length);
      }
    } else {
      pages.copyFrom(source, key.getOffset(), entry + KEY_OFFSET, keyLength);
      pages.copyFrom(
          row.getSegments(),
          row.getOffset(),
          entry + RecordEntryLayout.rowOffset(keyLength),
          rowLength);
    }
  }

  /** Writes an entry's header at {@code at} of {@code page}, which holds all of it. */
  private static void writeHeader(
      MemorySegment page,
      int at,
      int keyLength,
      int rowLength,
      long orderingValue,
      Operation operation,
      int arity) {
    page.putInt(at + ROW_WORD_OFFSET, rowLength);
    page.putInt(
        at + KEY_WORD_OFFSET, RecordEntryLayout.keyWord(keyLength, arity, operation.code()));
    page.putLong(at + ORDERING_OFFSET, orderingValue);
  }

  /** Makes {@code address} the next entry's and finds its page, if one is held there. */
  private void moveWritePositionTo(long address) {
    writeOffset = pages.offsetIn(address);
    writePageStart = address - writeOffset;
    int pageIndex = pages.pageIndex(address);
    if (pageIndex >= pages.pageCount()) {
      writePage = null;
      writeLimit = writeOffset;
      return;
    }
    writePage = pages.pageAt(pageIndex);
    writeLimit = writePage.size();
  }
}
