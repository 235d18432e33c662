package dev.mortar.buffer;

/**
 * Whether and when a {@link BucketBuffer} keeps only the latest record per key. Both de-duplicating
 * modes give the same records to a cursor: per key the one with the largest ordering value, the
 * later arrival on equal values. They differ in who pays and in memory:
 *
 * <ul>
 *   <li>{@link #ON_APPEND}: every append looks its key up in the index, so a newer record of a key
 *       replaces the older one right away (in place when the sizes match). A stream that updates a
 *       few hot keys holds one record per key and fills the buffer slowly. The lookup is a cache
 *       miss per new key once the index outgrows the cache, paid by the appending thread.
 *   <li>{@link #ON_READ}: appends only write the entry and reserve the index pages the pool will
 *       need; {@link BucketBuffer#cursor()} indexes the entries appended since the last cursor and
 *       marks the losers superseded. The lookups move to whichever thread reads the buffer (the
 *       flush thread in a write task), and duplicates take pages until then.
 * </ul>
 */
public enum Deduplication {
  /** Every record is kept, in arrival order. */
  OFF,
  /** The latest record per key, found when it is appended. */
  ON_APPEND,
  /** The latest record per key, found when the buffer is read. */
  ON_READ;

  boolean isOn() {
    return this != OFF;
  }
}
