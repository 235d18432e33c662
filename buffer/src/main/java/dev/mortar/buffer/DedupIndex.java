package dev.mortar.buffer;

import org.apache.flink.core.memory.MemorySegment;

/**
 * The de-duplication index of one {@link BucketBuffer}: an open-addressing hash table (linear
 * probing) from record key to the address of the key's live entry, stored in pages of the pool, so
 * it costs no Java object per record and its memory counts against the pool's budget.
 *
 * <pre>
 *  slot (int64):  63            32 31                    0
 *                 +----------------+----------------------+
 *                 | key hash       | entry address / 8 + 1|     0 = empty slot
 *                 +----------------+----------------------+
 * </pre>
 *
 * The table has a power-of-two number of slots, at least one page's worth; it doubles when it would
 * become more than {@link #MAX_LOAD_PERCENT}% full. Growth takes the new pages before it gives the
 * old ones back, so {@link #pagesToAddOneKey()} reports the full need up front. Keys are never
 * removed one by one: a newer entry for a key replaces the address in its slot.
 *
 * <p>For {@link Deduplication#ON_READ} the table is sized once for all keys to come ({@link
 * #pagesFor}, {@link #extendForReindex}) and filled without growing.
 */
final class DedupIndex {
  static final int MAX_LOAD_PERCENT = 75;
  private static final int SLOT_BYTES = 8;

  private final PagePool pool;
  private final BucketBuffer owner;
  private PageList table;
  private long slotMask;
  private long keys;

  /**
   * The sum of the slots {@link #touchHomeSlots} read. Nothing reads it: the reads are there only
   * to bring slots into cache, and a read whose value is never used the JIT would drop.
   */
  private long touchedSlotsSum;

  DedupIndex(PagePool pool, BucketBuffer owner) {
    this.pool = pool;
    this.owner = owner;
    this.table = new PageList(pool, owner);
  }

  int pageCount() {
    return table.pageCount();
  }

  /** Pages the pool must provide so that one more key can be added. */
  int pagesToAddOneKey() {
    if (table.pageCount() == 0) {
      return 1;
    }
    return needsGrowth() ? table.pageCount() * 2 : 0;
  }

  /**
   * The slot where {@code hash}/key is, or the empty slot where it would go; check with {@link
   * #isOccupied(long)}. Keys are compared against the key bytes of the entries in {@code data}.
   */
  long find(int hash, MemorySegment[] key, int keyOffset, int keyLength, PageList data) {
    return probe(hash, -1, key, keyOffset, keyLength, data);
  }

  /**
   * {@link #find} for the key of the entry at {@code entry} in {@code data}, which is read only
   * when a slot holds the same hash.
   */
  long findKeyOf(int hash, long entry, PageList data) {
    return probe(hash, entry, null, 0, 0, data);
  }

  /** Compares with the key of {@code entry} when it is not negative, else with {@code key}. */
  private long probe(
      int hash, long entry, MemorySegment[] key, int keyOffset, int keyLength, PageList data) {
    if (table.pageCount() == 0) {
      return -1;
    }
    long slot = hash & slotMask;
    while (true) {
      long value = table.getLong(slot * SLOT_BYTES);
      if (value == 0) {
        return slot;
      }
      if (hashOf(value) == hash) {
        long candidate = entryAddress(value);
        if (entry >= 0
            ? sameKey(candidate, entry, data)
            : keyLengthAt(candidate, data) == keyLength
                && data.bytesEqual(
                    candidate + RecordEntryLayout.KEY_OFFSET, key, keyOffset, keyLength)) {
          return slot;
        }
      }
      slot = (slot + 1) & slotMask;
    }
  }

  private static int keyLengthAt(long entry, PageList data) {
    return RecordEntryLayout.keyLength(data.getInt(entry + RecordEntryLayout.KEY_WORD_OFFSET));
  }

  private static boolean sameKey(long entry, long other, PageList data) {
    int keyLength = keyLengthAt(entry, data);
    return keyLengthAt(other, data) == keyLength
        && data.rangesEqual(
            entry + RecordEntryLayout.KEY_OFFSET, other + RecordEntryLayout.KEY_OFFSET, keyLength);
  }

  /**
   * Reads the home slot of each of the first {@code count} hashes. The reads do not depend on each
   * other, so a CPU runs their cache misses in parallel; the probes right after find the lines in
   * cache.
   */
  void touchHomeSlots(int[] hashes, int count) {
    long sum = 0;
    if (table.pageCount() > 0) {
      for (int i = 0; i < count; i++) {
        sum += table.getLong((hashes[i] & slotMask) * SLOT_BYTES);
      }
    }
    touchedSlotsSum += sum;
  }

  boolean isOccupied(long slot) {
    return slot >= 0 && table.getLong(slot * SLOT_BYTES) != 0;
  }

  /** The entry address stored in an occupied slot. */
  long entryAt(long slot) {
    return entryAddress(table.getLong(slot * SLOT_BYTES));
  }

  /** Points an occupied slot at a newer entry of the same key. */
  void replace(long slot, int hash, long entry) {
    table.putLong(slot * SLOT_BYTES, slotValue(hash, entry));
  }

  /**
   * Adds a key that {@link #find} did not find, into the empty {@code slot} it returned; when the
   * table is created or must grow first, the key goes where it falls in the new table. Takes pages
   * from the pool then; the caller has checked {@link #pagesToAddOneKey()} pages are available.
   */
  void addNew(long slot, int hash, long entry) {
    long value = slotValue(hash, entry);
    if (table.pageCount() == 0) {
      table.addPages(1);
      clearTable(table);
      slotMask = table.capacity() / SLOT_BYTES - 1;
      insert(table, slotMask, value);
    } else if (needsGrowth()) {
      grow();
      insert(table, slotMask, value);
    } else {
      table.putLong(slot * SLOT_BYTES, value);
    }
    keys++;
  }

  /**
   * Pages a table needs to take {@code keys} keys without growing: the same sizes {@link #addNew}
   * grows through.
   */
  static int pagesFor(int keys, int pageSize) {
    if (keys == 0) {
      return 0;
    }
    // the smallest power of two of slots, at least a page of them, with keys * 100 <= slots * load
    long minSlots = ((long) keys * 100 + MAX_LOAD_PERCENT - 1) / MAX_LOAD_PERCENT;
    long slots = Math.max(pageSize / SLOT_BYTES, Long.highestOneBit(minSlots - 1) << 1);
    return (int) (slots * SLOT_BYTES / pageSize);
  }

  /**
   * The most keys an index of {@code pages} pages (a count {@link #pagesFor} returns) holds: {@code
   * pagesFor(k) <= pages} exactly when {@code k <= keysFor(pages)}.
   */
  static int keysFor(int pages, int pageSize) {
    long slots = (long) pages * pageSize / SLOT_BYTES;
    return (int) Math.min(Integer.MAX_VALUE, slots * MAX_LOAD_PERCENT / 100);
  }

  /**
   * Adds {@code pages} pages (the caller has them from the pool) and forgets every key: the caller
   * clears the slots ({@link #clearSlots}) and adds all keys again.
   */
  void extendForReindex(int pages) {
    table.addPages(pages);
    slotMask = table.capacity() / SLOT_BYTES - 1;
    keys = 0;
  }

  /** Empties every slot, keeping the pages. */
  void clearSlots() {
    clearTable(table);
    keys = 0;
  }

  /** Gives every page back; the index is empty and reusable after. */
  void clear() {
    table.releaseAll();
    slotMask = 0;
    keys = 0;
  }

  private boolean needsGrowth() {
    return (keys + 1) * 100 > (slotMask + 1) * MAX_LOAD_PERCENT;
  }

  private void grow() {
    PageList bigger = new PageList(pool, owner);
    bigger.addPages(table.pageCount() * 2);
    clearTable(bigger);
    long biggerMask = bigger.capacity() / SLOT_BYTES - 1;
    for (long slot = 0; slot <= slotMask; slot++) {
      long value = table.getLong(slot * SLOT_BYTES);
      if (value != 0) {
        insert(bigger, biggerMask, value);
      }
    }
    table.releaseAll();
    table = bigger;
    slotMask = biggerMask;
  }

  private static void insert(PageList into, long mask, long value) {
    long slot = (value >>> 32) & mask;
    while (into.getLong(slot * SLOT_BYTES) != 0) {
      slot = (slot + 1) & mask;
    }
    into.putLong(slot * SLOT_BYTES, value);
  }

  private static void clearTable(PageList pages) {
    for (long address = 0; address < pages.capacity(); address += SLOT_BYTES) {
      pages.putLong(address, 0);
    }
  }

  /** A slot's value: the key's hash and the entry's address. */
  static long slotValue(int hash, long entry) {
    return ((long) hash << 32) | ((entry / RecordEntryLayout.ALIGNMENT) + 1);
  }

  static int hashOf(long slotValue) {
    return (int) (slotValue >>> 32);
  }

  static long entryAddress(long slotValue) {
    return ((slotValue & 0xFFFF_FFFFL) - 1) * RecordEntryLayout.ALIGNMENT;
  }
}
