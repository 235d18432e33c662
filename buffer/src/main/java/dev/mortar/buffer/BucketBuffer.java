package dev.mortar.buffer;

import dev.mortar.serde.Operation;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinarySection;
import org.apache.flink.table.data.binary.BinaryStringData;

/**
 * The records of one bucket between two flushes, as {@link RecordEntryLayout} entries in pages of a
 * {@link PagePool}. Appending copies the key and row bytes into the pages; nothing is allocated per
 * record. {@link PagePool#newBuffer} makes one per {@link Deduplication} mode: {@link
 * NoDedupBuffer}, {@link DedupOnAppendBuffer}, {@link DedupOnReadBuffer}. This class holds what
 * they share: the entries ({@link BufferEntries}), the cursor, the checks every append makes and
 * the life cycle.
 *
 * <p>{@link #append} is all or nothing: it first checks that the pool can give every page the
 * record (and the mode's index) needs, and only then writes. When it cannot, it returns {@code
 * false} and the buffer is exactly as before; the caller flushes another buffer ({@link
 * PagePool#largestBufferExcept}) and retries.
 *
 * <p>Not thread-safe; a cursor is invalidated by any change to the buffer.
 */
public abstract sealed class BucketBuffer
    permits NoDedupBuffer, DedupOnAppendBuffer, DedupOnReadBuffer {
  /** The most bytes a record key may have: an entry header holds its length in 16 bits. */
  public static final int MAX_KEY_BYTES = RecordEntryLayout.MAX_KEY_LENGTH;

  /** The most fields a row may have: an entry header holds the arity in 14 bits. */
  public static final int MAX_ROW_FIELDS = RecordEntryLayout.MAX_ARITY;

  final PagePool pool;
  final BufferEntries entries;
  private final String ownerName;
  private final BufferCursor cursor;

  /** Pages an empty pool must have beside a record's entry: those of the mode's index. */
  private final int pagesBesideEntries;

  /** The longest entry an empty pool can hold beside {@link #pagesBesideEntries}. */
  private final long maxEntryLength;

  private boolean released;

  BucketBuffer(PagePool pool, String ownerName, int pagesBesideEntries) {
    this.pool = pool;
    this.ownerName = ownerName;
    this.entries = new BufferEntries(pool, this);
    this.cursor = new BufferCursor(ownerName, entries);
    this.pagesBesideEntries = pagesBesideEntries;
    this.maxEntryLength = (long) (pool.maxPages() - pagesBesideEntries) * pool.pageSize();
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
  public abstract boolean append(
      BinaryStringData key, long orderingValue, Operation operation, BinaryRowData row);

  public abstract Deduplication deduplication();

  /**
   * Records a cursor will yield; with {@link Deduplication#ON_READ}, records held, of which a
   * cursor may yield fewer.
   */
  public final int recordCount() {
    return entries.liveCount();
  }

  /** Bytes of page memory this buffer holds (entries, padding, index, unused page tails). */
  public final long bytesHeld() {
    return (long) pagesHeld() * pool.pageSize();
  }

  /** Pages this buffer holds: entries and the mode's index (held and reserved). */
  public final int pagesHeld() {
    return entries.pageCount() + indexPagesHeld();
  }

  public final String ownerName() {
    return ownerName;
  }

  /**
   * The cursor over this buffer's records, reset to before the first one. There is one cursor per
   * buffer: calling this again restarts it. Any append or clear invalidates it.
   */
  public final BufferCursor cursor() {
    checkUsable();
    deduplicateBeforeReading();
    cursor.reset(entries.end(), entries.changeCount());
    return cursor;
  }

  /**
   * Takes the record of {@code key} out of the buffer: returns the cursor placed on it (its key,
   * ordering value, operation and row readable until the buffer changes), or null when the buffer
   * holds no record of that key. The record is gone from later cursors, and the key from later
   * takes; the cursor must not be moved with {@link BufferCursor#next()}. Merging a stream of older
   * records into a buffer of newer ones uses this: one lookup per older record, and a final cursor
   * yields the records no older one met.
   *
   * @throws UnsupportedOperationException unless the buffer de-duplicates on append
   */
  public final BufferCursor take(BinaryStringData key) {
    long entry = liveEntryOf(keyBytesOf(key));
    if (entry < 0) {
      return null;
    }
    cursor.reset(entries.end(), entries.changeCount());
    cursor.placeOn(entry);
    entries.supersede(entry);
    return cursor;
  }

  /** The address of the live entry of the key, or -1 when there is none. */
  long liveEntryOf(BinarySection keyBytes) {
    throw new UnsupportedOperationException(
        "buffer " + ownerName + " de-duplicates " + deduplication() + "; take() needs ON_APPEND");
  }

  /** Gives every page back to the pool; the buffer is empty and usable again. */
  public final void clear() {
    checkUsable();
    entries.clear();
    clearIndex();
  }

  /**
   * Clears the buffer and removes it from the pool's owners; it cannot be used after. Releasing
   * twice is a no-op, or an error in a strict pool.
   */
  public final void release() {
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
   * Makes the next {@link #cursor()} need nothing from the pool, so that it may run on another
   * thread: a write task calls this on its own thread before it hands the buffer to the thread that
   * reads it. Only {@link DedupOnReadBuffer} has pages to take here (those its appends reserved).
   */
  public void prepareForReading() {
    checkUsable();
  }

  /** Pages of the de-dup index and its helpers this buffer holds or has reserved. */
  abstract int indexPagesHeld();

  /** Lets the cursor see only the latest record per key, where the mode has not already. */
  abstract void deduplicateBeforeReading();

  /** Gives the index's pages back to the pool, after {@link #clear} gave back the entries'. */
  abstract void clearIndex();

  /**
   * The bytes of {@code key}, after the checks every append path but the write-page one makes: the
   * buffer is usable, and a key built from a Java String has its bytes.
   */
  final BinarySection keyBytesOf(BinaryStringData key) {
    checkUsable();
    BinarySection keyBytes = key.getBinarySection();
    if (keyBytes == null) {
      key.ensureMaterialized();
      keyBytes = key.getBinarySection();
    }
    return keyBytes;
  }

  /**
   * The length of the record's entry.
   *
   * @throws IllegalArgumentException when the entry header cannot hold the key length or arity; a
   *     long key is named by its first 32 characters
   * @throws RecordTooLargeException when the entry would not fit even into an empty pool
   */
  final long entryLengthOf(BinaryStringData key, BinarySection keyBytes, BinaryRowData row) {
    int keyLength = keyBytes.getSizeInBytes();
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
    if (row.getArity() > MAX_ROW_FIELDS) {
      throw new IllegalArgumentException(
          "row of "
              + row.getArity()
              + " fields for buffer "
              + ownerName
              + " has more than the "
              + MAX_ROW_FIELDS
              + " fields a buffer entry holds");
    }
    long entryLength = RecordEntryLayout.entryLength(keyLength, row.getSizeInBytes());
    if (entryLength > maxEntryLength) {
      throw new RecordTooLargeException(
          ownerName, entryLength, pool.pageSize(), pool.budgetBytes(), pagesBesideEntries);
    }
    return entryLength;
  }

  final void checkUsable() {
    if (released) {
      throw new IllegalStateException("buffer " + ownerName + " used after release()");
    }
  }
}
