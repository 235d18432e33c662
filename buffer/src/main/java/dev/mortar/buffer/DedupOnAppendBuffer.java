package dev.mortar.buffer;

import dev.mortar.serde.Operation;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinarySection;
import org.apache.flink.table.data.binary.BinaryStringData;

/**
 * A {@link BucketBuffer} that keeps the latest record per key as records arrive ({@link
 * Deduplication#ON_APPEND}): every append looks its key up in a {@link DedupIndex} in pages of the
 * same pool. A record that loses to its key's entry ({@link BufferEntries#losesTo}) is dropped; a
 * winner of the same entry length overwrites the loser in place, any other winner is appended and
 * the loser marked superseded.
 *
 * <p>Invariants: after every append each key has exactly one live entry, and the index maps the key
 * to it; so {@link #recordCount()} is the number of distinct keys, and a cursor needs no work
 * before reading. An append that needs a new key's index slot asks the pool for the entry's pages
 * and the index's growth ({@link DedupIndex#pagesToAddOneKey}) at once.
 */
final class DedupOnAppendBuffer extends BucketBuffer {
  /** The index's first page. */
  private static final int PAGES_BESIDE_ENTRIES = 1;

  private final DedupIndex index;

  DedupOnAppendBuffer(PagePool pool, String ownerName) {
    super(pool, ownerName, PAGES_BESIDE_ENTRIES);
    this.index = new DedupIndex(pool, this);
  }

  @Override
  public boolean append(
      BinaryStringData key, long orderingValue, Operation operation, BinaryRowData row) {
    BinarySection keyBytes = keyBytesOf(key);
    long entryLength = entryLengthOf(key, keyBytes, row);
    int keyLength = keyBytes.getSizeInBytes();
    int hash = keyBytes.hashCode();
    long slot =
        index.find(hash, keyBytes.getSegments(), keyBytes.getOffset(), keyLength, entries.pages());
    if (!index.isOccupied(slot)) {
      long entry =
          entries.append(
              entryLength, index.pagesToAddOneKey(), keyBytes, orderingValue, operation, row);
      if (entry < 0) {
        return false;
      }
      index.addNew(slot, hash, entry);
      return true;
    }
    long previous = index.entryAt(slot);
    if (entries.losesTo(orderingValue, previous)) {
      return true;
    }
    if (entries.entryLengthAt(previous, keyLength) == entryLength) {
      entries.overwrite(previous, entryLength, keyBytes, orderingValue, operation, row);
      return true;
    }
    long entry = entries.append(entryLength, 0, keyBytes, orderingValue, operation, row);
    if (entry < 0) {
      return false;
    }
    entries.supersede(previous);
    index.replace(slot, hash, entry);
    return true;
  }

  @Override
  long liveEntryOf(BinarySection keyBytes) {
    long slot =
        index.find(
            keyBytes.hashCode(),
            keyBytes.getSegments(),
            keyBytes.getOffset(),
            keyBytes.getSizeInBytes(),
            entries.pages());
    if (!index.isOccupied(slot)) {
      return -1;
    }
    long entry = index.entryAt(slot);
    return entries.isLive(entry) ? entry : -1;
  }

  @Override
  public Deduplication deduplication() {
    return Deduplication.ON_APPEND;
  }

  @Override
  int indexPagesHeld() {
    return index.pageCount();
  }

  @Override
  void deduplicateBeforeReading() {}

  @Override
  void clearIndex() {
    index.clear();
  }
}
