package dev.mortar.buffer;

import dev.mortar.serde.Operation;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinarySection;
import org.apache.flink.table.data.binary.BinaryStringData;

/**
 * A {@link BucketBuffer} that finds the latest record per key when it is read ({@link
 * Deduplication#ON_READ}). An append writes the entry, logs it as the index slot it will get (key
 * hash and address, 8 bytes, in pages of an entry log of its own) and reserves the {@link
 * DedupIndex} pages the keys so far may need ({@link PagePool#reserve}). {@link #cursor()} indexes
 * the entries logged since the last cursor, in arrival order, and marks each key's loser superseded
 * ({@link BufferEntries#losesTo}); it reads the hashes from the log instead of walking the entries,
 * and touches an entry only when its hash is already in the index.
 *
 * <p>Invariants:
 *
 * <ul>
 *   <li>The entry log holds one slot value per entry appended since the last clear, in arrival
 *       order ({@link #loggedEntries}); the first {@link #indexedEntries} of them are in the index.
 *   <li>The index pages held plus {@link #reservedIndexPages} take every entry appended so far
 *       without growing ({@link DedupIndex#pagesFor}), so the cursor never asks the pool for a
 *       page; reserved pages count as in use in the pool, so the budget and the all-or-nothing
 *       append hold as in the other modes.
 *   <li>{@link #recordCount()} counts the duplicates not yet indexed too: it falls to the number of
 *       distinct keys when a cursor is taken.
 *   <li>After {@link #prepareForReading()} no pages are reserved, so a cursor does not touch the
 *       pool (which is not thread-safe) and may run on another thread.
 * </ul>
 */
final class DedupOnReadBuffer extends BucketBuffer {
  /** The index's first page (reserved) and the entry log's. */
  private static final int PAGES_BESIDE_ENTRIES = 2;

  /**
   * The cursor indexes entries in groups: it takes {@value #PROBE_GROUP} hashes from the log,
   * touches their home slots (independent loads, so their cache misses overlap), then probes one by
   * one.
   */
  private static final int PROBE_GROUP = 16;

  private final DedupIndex index;

  /** The {@link DedupIndex#slotValue} of every append since the last clear, in order. */
  private final PageList entryLog;

  private final long[] groupEntries = new long[PROBE_GROUP];
  private final int[] groupHashes = new int[PROBE_GROUP];

  /** Entries appended since the last clear, one per {@link #entryLog} value. */
  private int loggedEntries;

  /** The first {@link #entryLog} values that are in the index. */
  private int indexedEntries;

  /** Index pages set aside in the pool, not yet taken. */
  private int reservedIndexPages;

  /**
   * The keys the index takes without growing once it has the pages it holds and those reserved for
   * it ({@link DedupIndex#keysFor}); an append reserves more only past this.
   */
  private int indexKeyCapacity;

  /** The index has new pages and must be rebuilt from the first entry. */
  private boolean reindexFromStart;

  DedupOnReadBuffer(PagePool pool, String ownerName) {
    super(pool, ownerName, PAGES_BESIDE_ENTRIES);
    this.index = new DedupIndex(pool, this);
    this.entryLog = new PageList(pool, this);
  }

  /**
   * Appends the entry, logs it for the next cursor's de-dup pass and reserves the index pages its
   * key may need; the entry, log and index pages are asked of the pool at once.
   */
  @Override
  public boolean append(
      BinaryStringData key, long orderingValue, Operation operation, BinaryRowData row) {
    BinarySection keyBytes = keyBytesOf(key);
    long entryLength = entryLengthOf(key, keyBytes, row);
    // while the index pages held or reserved take one more key, there is nothing to work out
    int records = recordCount();
    int indexPages = records < indexKeyCapacity ? 0 : indexPagesToReserveFor(records + 1);
    long logEnd = (loggedEntries + 1L) * Long.BYTES;
    int logPages = entryLog.pagesMissingFor(logEnd);
    long entry = entries.end();
    if (indexPages + logPages != 0
        || !entries.appendInWritePage(keyBytes, orderingValue, operation, row)) {
      entry =
          entries.append(
              entryLength, indexPages + logPages, keyBytes, orderingValue, operation, row);
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

  @Override
  public Deduplication deduplication() {
    return Deduplication.ON_READ;
  }

  /** Takes the index pages that appends reserved; does nothing when none are. */
  @Override
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

  @Override
  int indexPagesHeld() {
    return index.pageCount() + entryLog.pageCount() + reservedIndexPages;
  }

  @Override
  void deduplicateBeforeReading() {
    prepareForReading();
    supersedeUnindexedLosers();
  }

  @Override
  void clearIndex() {
    index.clear();
    entryLog.releaseAll();
    pool.unreserve(reservedIndexPages);
    reservedIndexPages = 0;
    indexKeyCapacity = 0;
    loggedEntries = 0;
    indexedEntries = 0;
    reindexFromStart = false;
  }

  /** Index pages to reserve so that the index can take {@code records} keys. */
  private int indexPagesToReserveFor(int records) {
    int needed = DedupIndex.pagesFor(records, pool.pageSize());
    return Math.max(0, needed - index.pageCount() - reservedIndexPages);
  }

  /**
   * Adds the entries not yet indexed to the index in arrival order, marking the loser of each key
   * superseded, as {@link DedupOnAppendBuffer#append} would have. Works in groups of {@value
   * #PROBE_GROUP} logged entries: it reads their home slots first, so that those reads do not wait
   * for each other.
   */
  private void supersedeUnindexedLosers() {
    if (reindexFromStart) {
      index.clearSlots();
      indexedEntries = 0;
      reindexFromStart = false;
    }
    // each entry a pass superseded took one off the record count; a re-index skips those entries
    boolean skipSuperseded = recordCount() < loggedEntries;
    while (indexedEntries < loggedEntries) {
      int count = Math.min(PROBE_GROUP, loggedEntries - indexedEntries);
      for (int i = 0; i < count; i++) {
        long logged = entryLog.getLong((long) (indexedEntries + i) * Long.BYTES);
        groupEntries[i] = DedupIndex.entryAddress(logged);
        groupHashes[i] = DedupIndex.hashOf(logged);
      }
      index.touchHomeSlots(groupHashes, count);
      for (int i = 0; i < count; i++) {
        if (!skipSuperseded || entries.isLive(groupEntries[i])) {
          indexLiveEntry(groupEntries[i], groupHashes[i]);
        }
      }
      indexedEntries += count;
    }
  }

  private void indexLiveEntry(long entry, int hash) {
    long slot = index.findKeyOf(hash, entry, entries.pages());
    if (!index.isOccupied(slot)) {
      if (index.pagesToAddOneKey() != 0) {
        throw new IllegalStateException(
            "de-dup index of " + ownerName() + " has fewer pages than its records need");
      }
      index.addNew(slot, hash, entry);
      return;
    }
    long previous = index.entryAt(slot);
    if (entries.losesTo(entries.orderingValueAt(entry), previous)) {
      entries.supersede(entry);
    } else {
      entries.supersede(previous);
      index.replace(slot, hash, entry);
    }
  }
}
