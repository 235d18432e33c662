package dev.mortar.logformat;

import java.io.IOException;
import java.util.Arrays;
import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.core.memory.MemorySegmentFactory;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinarySegmentUtils;

/**
 * Copies of the first records of a block or file, held until its writer is opened (the caller's
 * rows may be reused as soon as they are added). Each record's key bytes and row bytes lie side by
 * side in one array, which, with the index arrays, is reused from block to block and only grows.
 */
final class PendingRecords {
  /** Receives the held records, in the order they were added. */
  @FunctionalInterface
  interface RecordSink {
    /** The key is {@code keyLength} bytes at {@code keyOffset} of {@code keySegments}. */
    void write(
        MemorySegment[] keySegments,
        int keyOffset,
        int keyLength,
        long seqCounter,
        BinaryRowData row)
        throws IOException;
  }

  private final BinaryRowData row;
  private byte[] bytes = new byte[1 << 16];
  private MemorySegment[] segments = {MemorySegmentFactory.wrap(bytes)};
  private int size;
  private int count;

  /** Per record: the offset of its key, the length of its key, then the length of its row. */
  private int[] positions = new int[3 * 64];

  private long[] seqCounters = new long[64];

  PendingRecords(int rowArity) {
    this.row = new BinaryRowData(rowArity);
  }

  /**
   * Holds a record whose key is {@code keyLength} bytes at {@code keyOffset} of {@code
   * keySegments}.
   */
  void add(
      MemorySegment[] keySegments,
      int keyOffset,
      int keyLength,
      long seqCounter,
      BinaryRowData record) {
    int rowLength = record.getSizeInBytes();
    ensureRoom(keyLength + rowLength);
    if (count == seqCounters.length) {
      seqCounters = Arrays.copyOf(seqCounters, count * 2);
      positions = Arrays.copyOf(positions, positions.length * 2);
    }
    positions[3 * count] = size;
    positions[3 * count + 1] = keyLength;
    positions[3 * count + 2] = rowLength;
    seqCounters[count] = seqCounter;
    BinarySegmentUtils.copyToBytes(keySegments, keyOffset, bytes, size, keyLength);
    size += keyLength;
    BinarySegmentUtils.copyToBytes(
        record.getSegments(), record.getOffset(), bytes, size, rowLength);
    size += rowLength;
    count++;
  }

  /** Bytes held: the keys and rows added since the last {@link #clear}. */
  int sizeInBytes() {
    return size;
  }

  /** Hands every held record to {@code sink}, then holds none. */
  void drainTo(RecordSink sink) throws IOException {
    for (int i = 0; i < count; i++) {
      int keyOffset = positions[3 * i];
      int keyLength = positions[3 * i + 1];
      row.pointTo(segments, keyOffset + keyLength, positions[3 * i + 2]);
      sink.write(segments, keyOffset, keyLength, seqCounters[i], row);
    }
    size = 0;
    count = 0;
  }

  private void ensureRoom(int length) {
    if (bytes.length - size < length) {
      bytes = Arrays.copyOf(bytes, Math.max(size + length, bytes.length * 2));
      segments = new MemorySegment[] {MemorySegmentFactory.wrap(bytes)};
    }
  }
}
