package dev.mortar.buffer;

import static dev.mortar.buffer.RecordEntryLayout.KEY_OFFSET;
import static dev.mortar.buffer.RecordEntryLayout.KEY_WORD_OFFSET;
import static dev.mortar.buffer.RecordEntryLayout.ORDERING_OFFSET;
import static dev.mortar.buffer.RecordEntryLayout.ROW_WORD_OFFSET;

import dev.mortar.serde.Operation;
import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinarySection;
import org.apache.flink.table.data.binary.BinaryStringData;

/**
 * The records of one bucket between two flushes, as {@link RecordEntryLayout} entries in pages of a
 * {@link PagePool}. Appending copies the key and row bytes into the pages; nothing is allocated per
 * record.
 *
 * <p>With de-duplication ({@link Deduplication}) only the latest record per key is kept: the one
 * with the larger ordering value, and on equal values the later arrival (a delete is a record like
 * any other). The key index is a {@link DedupIndex} in pages of the same pool.
 *
 * <ul>
 *   <li>{@link Deduplication#ON_APPEND}: a record that loses is dropped. A winner of the same entry
 *       length overwrites the loser in place; otherwise it is appended and the loser is marked
 *       superseded.
 *   <li>{@link Deduplication#ON_READ}: appends reserve the index pages the keys may need ({@link
 *       PagePool#reserve}) and log each entry as the index slot it will get (key hash and address,
 *       8 bytes, in pages of their own); {@link #cursor()} indexes the entries appended since the
 *       last cursor, in arrival order, and marks each loser superseded. From the log it reads the
 *       entries' hashes in order instead of walking the entries, and touches an entry only when its
 *       hash is already in the index. Until then {@link #recordCount()} counts the duplicates too.
 *       {@link #prepareForReading()} takes the reserved pages, so that a cursor after it does not
 *       touch the pool and may run on another thread.
 * </ul>
 *
 * <p>{@link #append} is all or nothing: it first checks that the pool can give every page the
 * record (and the index growth or reservation) needs, and only then writes. When it cannot, it
 * returns {@code false} and the buffer is exactly as before; the caller flushes another buffer
 * ({@link PagePool#largestBufferExcept}) and retries.
 *
 * <p>Not thread-safe; a cursor is invalidated by any change to the buffer.
 */
public final class BucketBuffer {
  /** The most bytes a record key may have: an entry header holds its length in 16 bits. */
  public static final int MAX_KEY_BYTES = RecordEntryLayout.MAX_KEY_LENGTH;

  /** The most fields a row may have: an entry header holds the arity in 14 bits. */
  public static final int MAX_ROW_FIELDS = RecordEntryLayout.MAX_ARITY;

  private final PagePool pool;
  private final String ownerName;
  private final Deduplication deduplication;
  private final PageList data;
  private final DedupIndex index;

  /** ON_READ: the {@link DedupIndex#slotValue} of every append since the last clear, in order. */
  private final PageList entryLog;

  private final BufferCursor cursor;

  /**
   * ON_READ indexes entries in groups: it hashes {@value #PROBE_GROUP} keys, touches their home
   * slots (independent loads, so their cache misses overlap), then probes one by one.
   */
  private static final int PROBE_GROUP = 16;

  private final long[] groupEntries = new long[PROBE_GROUP];
  private final int[] groupHashes = new int[PROBE_GROUP];

  /** The sum of the touched slots, kept so that the compiler keeps the loads. */
  private long touchedSlots;

  /** The longest entry an empty pool can hold, next to the first page of the de-dup index. */
  private final long maxEntryLength;

  /**
   * The page the next entry goes to, when {@link #writeLimit} is past {@link #writeOffset}; null
   * when no page is held there yet.
   */
  private MemorySegment writePage;

  /** The address of {@link #writePage}'s first byte. */
  private long writePageStart;

  /** The next entry's offset in {@link #writePage}: its address is {@link #writeAddress()}. */
  private int writeOffset;

  /** {@link #writePage}'s size; {@link #writeOffset} when no page is held there. */
  private int writeLimit;

  private int recordCount;

  /** ON_READ: entries appended since the last clear, one per {@link #entryLog} value. */
  private int loggedEntries;

  /** ON_READ: the first {@link #entryLog} values that are in the index. */
  private int indexedEntries;

  /** ON_READ: index pages set aside in the pool, not yet taken. */
  private int reservedIndexPages;

  /**
   * ON_READ: the keys the index takes without growing once it has the pages it holds and those
   * reserved for it ({@link DedupIndex#keysFor}); an append reserves more only past this.
   */
  private int indexKeyCapacity;

  /** ON_READ: the index has new pages and must be rebuilt from the first entry. */
  private boolean reindexFromStart;

  private int modificationCount;
  private boolean released;

  BucketBuffer(PagePool pool, String ownerName, Deduplication deduplication) {
    this.pool = pool;
    this.ownerName = ownerName;
    this.deduplication = deduplication;
    this.data = new PageList(pool, this);
    this.index = deduplication.isOn() ? new DedupIndex(pool, this) : null;
    this.entryLog = deduplication == Deduplication.ON_READ ? new PageList(pool, this) : null;
    this.cursor = new BufferCursor(this, data);
    this.maxEntryLength =
        (long) (pool.maxPages() - pagesBesideEntries(deduplication)) * pool.pageSize();
  }

  /**
   * Appends a record, or reports that the pool is full.
   *
   * @return {@code true} when the record is held (or, with de-duplication, lost to a newer one);
   *     {@code false} when the pool has too few free pages, leaving this buffer unchanged
   * @throws RecordTooLargeException when the record would not fit even into an empty pool
   * @throws IllegalArgumentException when the key is longer than {@link #MAX_KEY_BYTES} or the row
   *     has more than {@link #MAX_ROW_FIELDS} fields (the buffer is unchanged)
   */
  public boolean append(
      BinaryStringData key, long orderingValue, Operation operation, BinaryRowData row) {
    BinarySection keyBytes = key.getBinarySection();
    if (deduplication == Deduplication.OFF
        && keyBytes != null
        && appendInWritePage(keyBytes, orderingValue, operation, row)) {
      return true;
    }
    return appendOutsideWritePage(key, orderingValue, operation, row);
  }

  /**
   * {@link #append} for every record {@link #appendInWritePage} does not take: about one per page
   * without de-dup. Kept apart so that {@link #append} is the write-page path and a call; the JIT
   * inlines {@link #append} into the caller's loop only while its compiled code is small (rfc/0002,
   * "Copies are sized for the JIT").
   */
  private boolean appendOutsideWritePage(
      BinaryStringData key, long orderingValue, Operation operation, BinaryRowData row) {
    checkUsable();
    BinarySection keyBytes = key.getBinarySection();
    if (keyBytes == null) { // a key built from a Java String
      key.ensureMaterialized();
      keyBytes = key.getBinarySection();
    }
    checkFitsHeader(key, keyBytes.getSizeInBytes(), row.getArity());
    long entryLength =
        RecordEntryLayout.entryLength(keyBytes.getSizeInBytes(), row.getSizeInBytes());
    if (entryLength > maxEntryLength) {
      throw new RecordTooLargeException(
          ownerName,
          entryLength,
          pool.pageSize(),
          pool.budgetBytes(),
          pagesBesideEntries(deduplication));
    }
    if (deduplication == Deduplication.OFF) {
      return appendEntry(entryLength, 0, keyBytes, orderingValue, operation, row) >= 0;
    }
    if (deduplication == Deduplication.ON_READ) {
      return appendAndLog(entryLength, keyBytes, orderingValue, operation, row);
    }
    return appendOrReplace(entryLength, keyBytes, orderingValue, operation, row);
  }

  /**
   * The common case of an append that needs no page for a de-dup index or log (without de-dup,
   * every append): the entry fits in the rest of the page being written, and key and row lie back
   * to back in one segment (a shuffle row's wire record). Then it needs no page from the pool and
   * no address translation: a header and one copy.
   *
   * @return whether the record was appended; if not, nothing changed
   */
  private boolean appendInWritePage(
      BinarySection key, long orderingValue, Operation operation, BinaryRowData row) {
    int keyLength = key.getSizeInBytes();
    int rowLength = row.getSizeInBytes();
    int arity = row.getArity();
    int keyOffset = key.getOffset();
    MemorySegment[] source = key.getSegments();
    long entryLength = RecordEntryLayout.entryLength(keyLength, rowLength);
    int at = writeOffset;
    if (entryLength > writeLimit - at
        || (keyLength | arity) > MAX_ROW_FIELDS // leaves the exact header limits to the slow path
        || source != row.getSegments()
        || keyOffset + keyLength != row.getOffset()
        || (long) row.getOffset() + rowLength > source[0].size()) {
      return false;
    }
    MemorySegment page = writePage;
    writeHeader(page, at, keyLength, rowLength, orderingValue, operation, arity);
    SegmentCopy.copy(source[0], keyOffset, page, at + KEY_OFFSET, keyLength + rowLength);
    writeOffset = at + (int) entryLength;
    recordCount++;
    modificationCount++;
    return true;
  }

  /**
   * ON_READ: appends the entry, logs it for the next cursor's de-dup pass and reserves the index
   * pages its key may need.
   */
  private boolean appendAndLog(
      long entryLength,
      BinarySection keyBytes,
      long orderingValue,
      Operation operation,
      BinaryRowData row) {
    // while the index pages held or reserved take one more key, there is nothing to work out
    int indexPages = recordCount < indexKeyCapacity ? 0 : indexPagesToReserveFor(recordCount + 1);
    long logEnd = (loggedEntries + 1L) * Long.BYTES;
    int logPages = entryLog.pagesMissingFor(logEnd);
    long entry = writeAddress();
    if (indexPages + logPages != 0 || !appendInWritePage(keyBytes, orderingValue, operation, row)) {
      entry =
          appendEntry(entryLength, indexPages + logPages, keyBytes, orderingValue, operation, row);
      if (entry < 0) {
        return false;
      }
    }
    entryLog.addPages(logPages);
    entryLog.putLong(logEnd - Long.BYTES, DedupIndex.slotValue(keyBytes.hashCode(), entry));
    loggedEntries++;
    if (indexPages != 0) {
      pool.reserve(indexPages);
      reservedIndexPages += indexPages;
      indexKeyCapacity =
          DedupIndex.keysFor(index.pageCount() + reservedIndexPages, pool.pageSize());
    }
    return true;
  }

  /**
   * ON_APPEND: looks the key up; a new key's entry is appended and indexed, a record that loses to
   * its key's entry is dropped, and a winner overwrites the loser in place when it has the same
   * length, else is appended with the loser marked superseded.
   */
  private boolean appendOrReplace(
      long entryLength,
      BinarySection keyBytes,
      long orderingValue,
      Operation operation,
      BinaryRowData row) {
    int keyLength = keyBytes.getSizeInBytes();
    int hash = keyBytes.hashCode();
    long slot = index.find(hash, keyBytes.getSegments(), keyBytes.getOffset(), keyLength, data);
    if (!index.isOccupied(slot)) {
      long entry =
          appendEntry(
              entryLength, index.pagesToAddOneKey(), keyBytes, orderingValue, operation, row);
      if (entry < 0) {
        return false;
      }
      index.addNew(slot, hash, entry);
      return true;
    }
    long previous = index.entryAt(slot);
    if (losesTo(orderingValue, previous)) {
      return true;
    }
    int previousRowLength = RecordEntryLayout.rowLength(data.getInt(previous + ROW_WORD_OFFSET));
    if (RecordEntryLayout.entryLength(keyLength, previousRowLength) == entryLength) {
      writeEntry(previous, entryLength, keyBytes, orderingValue, operation, row);
      modificationCount++;
      return true;
    }
    long entry = appendEntry(entryLength, 0, keyBytes, orderingValue, operation, row);
    if (entry < 0) {
      return false;
    }
    markSuperseded(previous);
    recordCount--;
    index.replace(slot, hash, entry);
    return true;
  }

  /**
   * Records a cursor will yield; with {@link Deduplication#ON_READ}, records held, of which a
   * cursor may yield fewer.
   */
  public int recordCount() {
    return recordCount;
  }

  /** Bytes of page memory this buffer holds (entries, padding, index, unused page tails). */
  public long bytesHeld() {
    return (long) pagesHeld() * pool.pageSize();
  }

  /** Pages this buffer holds: entries, de-dup index (held and reserved) and entry log. */
  public int pagesHeld() {
    return data.pageCount()
        + (index == null ? 0 : index.pageCount())
        + (entryLog == null ? 0 : entryLog.pageCount())
        + reservedIndexPages;
  }

  public String ownerName() {
    return ownerName;
  }

  public Deduplication deduplication() {
    return deduplication;
  }

  /**
   * The cursor over this buffer's records, reset to before the first one. There is one cursor per
   * buffer: calling this again restarts it. Any append or clear invalidates it.
   */
  public BufferCursor cursor() {
    checkUsable();
    if (deduplication == Deduplication.ON_READ) {
      prepareForReading();
      supersedeUnindexedLosers();
    }
    cursor.reset(writeAddress(), modificationCount);
    return cursor;
  }

  /** Gives every page back to the pool; the buffer is empty and usable again. */
  public void clear() {
    checkUsable();
    data.releaseAll();
    if (index != null) {
      index.clear();
    }
    if (entryLog != null) {
      entryLog.releaseAll();
    }
    pool.unreserve(reservedIndexPages);
    reservedIndexPages = 0;
    indexKeyCapacity = 0;
    loggedEntries = 0;
    indexedEntries = 0;
    reindexFromStart = false;
    moveWritePositionTo(0);
    recordCount = 0;
    modificationCount++;
  }

  /**
   * Clears the buffer and removes it from the pool's owners; it cannot be used after. Releasing
   * twice is a no-op, or an error in a strict pool.
   */
  public void release() {
    if (released) {
      if (pool.isStrict()) {
        throw new IllegalStateException("buffer " + ownerName + " released twice");
      }
      return;
    }
    clear();
    released = true;
    pool.deregister(this);
  }

  /**
   * With {@link Deduplication#ON_READ}, takes the index pages that appends reserved, so that the
   * next {@link #cursor()} needs nothing from the pool: a write task calls this on its own thread
   * before it hands the buffer to the thread that reads it. Otherwise, and when nothing is
   * reserved, does nothing.
   */
  public void prepareForReading() {
    checkUsable();
    if (reservedIndexPages == 0) {
      return;
    }
    pool.unreserve(reservedIndexPages);
    index.extendForReindex(reservedIndexPages);
    reservedIndexPages = 0;
    reindexFromStart = true;
  }

  /**
   * Pages an empty pool must have beside a record's entry: ON_APPEND the index's first page,
   * ON_READ also the entry log's.
   */
  private static int pagesBesideEntries(Deduplication deduplication) {
    return switch (deduplication) {
      case OFF -> 0;
      case ON_APPEND -> 1;
      case ON_READ -> 2;
    };
  }

  /** Index pages to reserve so that the index can take {@code records} keys. */
  private int indexPagesToReserveFor(int records) {
    int needed = DedupIndex.pagesFor(records, pool.pageSize());
    return Math.max(0, needed - index.pageCount() - reservedIndexPages);
  }

  /**
   * ON_READ: adds the entries not yet indexed to the index in arrival order, marking the loser of
   * each key superseded, as {@link #append} would have with {@link Deduplication#ON_APPEND}. Works
   * in groups of {@value #PROBE_GROUP} logged entries: it reads their home slots first, so that
   * those reads do not wait for each other.
   */
  private void supersedeUnindexedLosers() {
    if (reindexFromStart) {
      index.clearSlots();
      indexedEntries = 0;
      reindexFromStart = false;
    }
    // each entry a pass superseded took one off the record count; a re-index skips those entries
    boolean skipSuperseded = recordCount < loggedEntries;
    while (indexedEntries < loggedEntries) {
      int count = Math.min(PROBE_GROUP, loggedEntries - indexedEntries);
      for (int i = 0; i < count; i++) {
        long logged = entryLog.getLong((long) (indexedEntries + i) * Long.BYTES);
        groupEntries[i] = DedupIndex.entryAddress(logged);
        groupHashes[i] = DedupIndex.hashOf(logged);
      }
      touchedSlots += index.touchHomeSlots(groupHashes, count);
      for (int i = 0; i < count; i++) {
        if (!skipSuperseded
            || RecordEntryLayout.isLive(data.getInt(groupEntries[i] + ROW_WORD_OFFSET))) {
          indexLiveEntry(groupEntries[i], groupHashes[i]);
        }
      }
      indexedEntries += count;
    }
  }

  private void indexLiveEntry(long entry, int hash) {
    long slot = index.findKeyOf(hash, entry, data);
    if (!index.isOccupied(slot)) {
      if (index.pagesToAddOneKey() != 0) {
        throw new IllegalStateException(
            "de-dup index of " + ownerName + " has fewer pages than its records need");
      }
      index.addNew(slot, hash, entry);
      return;
    }
    long previous = index.entryAt(slot);
    if (losesTo(data.getLong(entry + ORDERING_OFFSET), previous)) {
      markSuperseded(entry);
    } else {
      markSuperseded(previous);
      index.replace(slot, hash, entry);
    }
    recordCount--;
    modificationCount++;
  }

  /**
   * Whether a record of {@code orderingValue} loses to the live entry of its key at {@code
   * previous}: a smaller ordering value loses; on equal values the later arrival wins.
   */
  private boolean losesTo(long orderingValue, long previous) {
    return orderingValue < data.getLong(previous + ORDERING_OFFSET);
  }

  /** Sets the superseded bit of the entry at {@code entry}: iteration skips it from now on. */
  private void markSuperseded(long entry) {
    long rowWord = entry + ROW_WORD_OFFSET;
    data.putInt(rowWord, RecordEntryLayout.superseded(data.getInt(rowWord)));
  }

  /**
   * Rejects a record whose key length or arity the entry header cannot hold; a long key is named by
   * its first 32 characters.
   */
  private void checkFitsHeader(BinaryStringData key, int keyLength, int arity) {
    if (keyLength > MAX_KEY_BYTES) {
      throw new IllegalArgumentException(
          "key of "
              + keyLength
              + " bytes ('"
              + key.substring(0, 32)
              + "…') for buffer "
              + ownerName
              + " is longer than the "
              + MAX_KEY_BYTES
              + " bytes a buffer entry holds; shorten the record key");
    }
    if (arity > MAX_ROW_FIELDS) {
      throw new IllegalArgumentException(
          "row of "
              + arity
              + " fields for buffer "
              + ownerName
              + " has more than the "
              + MAX_ROW_FIELDS
              + " fields a buffer entry holds");
    }
  }

  int modificationCount() {
    return modificationCount;
  }

  void checkUsable() {
    if (released) {
      throw new IllegalStateException("buffer " + ownerName + " used after release()");
    }
  }

  /**
   * Writes a new entry at the end if the pool can give its pages plus {@code extraPages}.
   *
   * @return the entry's address, or -1 when the pages are not available (nothing changed)
   */
  private long appendEntry(
      long entryLength,
      int extraPages,
      BinarySection key,
      long orderingValue,
      Operation operation,
      BinaryRowData row) {
    long entry = writeAddress();
    int missing = data.pagesMissingFor(entry + entryLength);
    if (!pool.canAcquire(missing + extraPages)) {
      return -1;
    }
    data.addPages(missing);
    writeEntry(entry, entryLength, key, orderingValue, operation, row);
    moveWritePositionTo(entry + entryLength);
    recordCount++;
    modificationCount++;
    return entry;
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
    MemorySegment page = data.inOnePage(entry, (int) entryLength) ? data.pageOf(entry) : null;
    if (page != null) {
      writeHeader(
          page,
          data.offsetIn(entry),
          keyLength,
          rowLength,
          orderingValue,
          operation,
          row.getArity());
    } else {
      data.putInt(entry + ROW_WORD_OFFSET, rowLength);
      data.putInt(
          entry + KEY_WORD_OFFSET,
          RecordEntryLayout.keyWord(keyLength, row.getArity(), operation.code()));
      data.putLong(entry + ORDERING_OFFSET, orderingValue);
    }
    MemorySegment[] source = key.getSegments();
    int length = keyLength + rowLength;
    if (source == row.getSegments() && key.getOffset() + keyLength == row.getOffset()) {
      // key and row lie back to back, as in a shuffle row's wire record: one copy for both
      if (page != null) {
        data.copyFrom(source, key.getOffset(), page, entry + KEY_OFFSET, length);
      } else {
        data.copyFrom(source, key.getOffset(), entry + KEY_OFFSET, length);
      }
    } else {
      data.copyFrom(source, key.getOffset(), entry + KEY_OFFSET, keyLength);
      data.copyFrom(
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

  /** The address the next entry goes to: the end of the entries. */
  private long writeAddress() {
    return writePageStart + writeOffset;
  }

  /**
   * Makes {@code address} the next entry's and finds its page; no room there when that starts a
   * page not yet held (so also after {@link #clear} and {@link #release}, which is what keeps the
   * appends that skip {@link #checkUsable} out of a released buffer).
   */
  private void moveWritePositionTo(long address) {
    writeOffset = data.offsetIn(address);
    writePageStart = address - writeOffset;
    int pageIndex = data.pageIndex(address);
    if (pageIndex >= data.pageCount()) {
      writePage = null;
      writeLimit = writeOffset;
      return;
    }
    writePage = data.pageAt(pageIndex);
    writeLimit = writePage.size();
  }
}
