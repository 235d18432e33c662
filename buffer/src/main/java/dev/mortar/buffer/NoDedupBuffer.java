package dev.mortar.buffer;

import dev.mortar.serde.Operation;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinarySection;
import org.apache.flink.table.data.binary.BinaryStringData;

/**
 * A {@link BucketBuffer} without de-duplication ({@link Deduplication#OFF}): every record is kept,
 * in arrival order. It has no index, so it holds only entry pages, none of its entries is ever
 * superseded, and {@link #recordCount()} is the number of appends that returned {@code true}.
 *
 * <p>{@link #append} is the write-page path ({@link BufferEntries#appendInWritePage}) and a call:
 * the JIT inlines {@link #append} into the caller's loop only while its compiled code is small
 * (rfc/0002, "Copies are sized for the JIT"), so everything the write page cannot take (about one
 * record per page) goes to a method of its own.
 */
final class NoDedupBuffer extends BucketBuffer {
  NoDedupBuffer(PagePool pool, String ownerName) {
    super(pool, ownerName, 0);
  }

  @Override
  public boolean append(
      BinaryStringData key, long orderingValue, Operation operation, BinaryRowData row) {
    BinarySection keyBytes = key.getBinarySection();
    if (keyBytes != null && entries.appendInWritePage(keyBytes, orderingValue, operation, row)) {
      return true;
    }
    return appendOutsideWritePage(key, orderingValue, operation, row);
  }

  private boolean appendOutsideWritePage(
      BinaryStringData key, long orderingValue, Operation operation, BinaryRowData row) {
    BinarySection keyBytes = keyBytesOf(key);
    long entryLength = entryLengthOf(key, keyBytes, row);
    return entries.append(entryLength, 0, keyBytes, orderingValue, operation, row) >= 0;
  }

  @Override
  public Deduplication deduplication() {
    return Deduplication.OFF;
  }

  @Override
  int indexPagesHeld() {
    return 0;
  }

  @Override
  void deduplicateBeforeReading() {}

  @Override
  void clearIndex() {}
}
