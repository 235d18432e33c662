package dev.mortar.serde;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Arrays;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.core.memory.MemorySegmentFactory;

/**
 * Shuffle rows bound for one write task, sent through the shuffle as one record.
 *
 * <p>Flink's network stack works per record: the record writer's serializer call, the channel
 * selector, a length header, the reader's record deserializer and the operator call. For a shuffle
 * row of ~200 bytes that work costs more than the row's own bytes; a batch pays it once for dozens
 * of rows. The rows keep their {@link MortarRowWireFormat} records, back to back in one growable
 * array, and a {@link MortarRowBatchReader} hands them out as views over that array, without a
 * copy.
 *
 * <p>On the wire ({@link MortarRowBatchSerializer}):
 *
 * <pre>
 * +-----------+------------+-------------------------------------------------+
 * | row count | byte count | row 1 | row 2 | ... each a MortarRowWireFormat   |
 * | varint    | varint     |       |       |     record                      |
 * +-----------+------------+-------------------------------------------------+
 * </pre>
 *
 * The task a batch is bound for routes it to its channel and is not on the wire: a batch that was
 * read from the wire has task -1.
 */
public final class MortarRowBatch {
  /** The task of a batch read from the wire, which no longer needs routing. */
  public static final int NO_TASK = -1;

  /** Spare batches a serializer keeps beyond this many are left to the GC. */
  static final int MAX_SPARES = 4;

  /**
   * The array's first size in a batch read from the wire: the writer sends a batch once it holds 8
   * KiB, so this holds it with a last row of up to 24 KiB, and most jobs never grow it.
   */
  static final int RECEIVING_BYTES = 32 * 1024;

  private final int task;
  private DataOutputSerializer bytes;

  /** A segment over {@link #bytes}' array, made again when the array is replaced. */
  private MemorySegment segment;

  private int rowCount;

  /**
   * The spare batches of the serializer that read this batch, where {@link #recycle()} puts it;
   * null for a batch its sender built.
   */
  private ArrayDeque<MortarRowBatch> spares;

  private boolean recycled;

  /**
   * An empty batch.
   *
   * @param task the write task the batch is bound for, or {@link #NO_TASK}
   * @param initialBytes the array's first size; it grows as rows are added
   */
  public MortarRowBatch(int task, int initialBytes) {
    this.task = task;
    this.bytes = new DataOutputSerializer(Math.max(1, initialBytes));
    this.segment = MemorySegmentFactory.wrap(bytes.getSharedBuffer());
  }

  public int task() {
    return task;
  }

  /** Appends {@code row}'s wire record, written by {@code serializer}. */
  public void add(MortarRow row, MortarRowSerializer serializer) throws IOException {
    serializer.serialize(row, bytes);
    rowCount++;
  }

  public int rowCount() {
    return rowCount;
  }

  public boolean isEmpty() {
    return rowCount == 0;
  }

  /** Bytes of the rows' wire records (the byte count on the wire). */
  public int sizeInBytes() {
    return bytes.length();
  }

  /** Drops every row; the array stays for the next rows. */
  public void clear() {
    bytes.clear();
    rowCount = 0;
  }

  /**
   * Hands a batch read from the wire back to the serializer that read it, which fills it with a
   * later batch instead of allocating one, so that a write task allocates nothing per batch. Call
   * it on the thread that deserializes (the Flink task's) once nothing reads the batch's rows any
   * more: the next batch overwrites them. The batch is empty after. Does nothing for a batch its
   * sender built.
   *
   * @throws IllegalStateException when the batch was recycled already
   */
  public void recycle() {
    if (spares == null) {
      return;
    }
    if (recycled) {
      throw new IllegalStateException("a shuffle row batch was recycled twice");
    }
    clear();
    recycled = true;
    if (spares.size() < MAX_SPARES) {
      spares.push(this);
    }
  }

  /**
   * @throws IllegalStateException when the batch was recycled: it belongs to its serializer again,
   *     which refills it with a later batch
   */
  void checkNotRecycled() {
    if (recycled) {
      throw new IllegalStateException(
          "a recycled shuffle row batch was used: its serializer refills it with a later batch");
    }
  }

  /** Marks this batch as read by a serializer that keeps its spare batches in {@code spares}. */
  void readBy(ArrayDeque<MortarRowBatch> spares) {
    this.spares = spares;
    this.recycled = false;
  }

  /** The array holding the rows' records in {@code [0, sizeInBytes())}; shared, not a copy. */
  byte[] array() {
    return bytes.getSharedBuffer();
  }

  /**
   * A segment over {@link #array()}, wrapped again only when the array was replaced (a batch its
   * sender built grew, or a batch read from the wire needed a larger one).
   */
  MemorySegment segment() {
    byte[] array = bytes.getSharedBuffer();
    if (segment.getArray() != array) {
      segment = MemorySegmentFactory.wrap(array);
    }
    return segment;
  }

  /** Replaces the rows with {@code size} bytes of {@code rowCount} records read from {@code in}. */
  void readFrom(DataInputView in, int rowCount, int size) throws IOException {
    if (bytes.getSharedBuffer().length < size) {
      bytes = new DataOutputSerializer(size); // a stream write into it does not grow it
    }
    bytes.clear();
    bytes.write(in, size);
    this.rowCount = rowCount;
  }

  /** Replaces the rows with those of {@code other}. */
  void copyFrom(MortarRowBatch other) throws IOException {
    bytes.clear();
    bytes.write(other.array(), 0, other.sizeInBytes());
    rowCount = other.rowCount;
  }

  /** Equal when the rows' records are: the task is not compared (it is not on the wire). */
  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof MortarRowBatch)) {
      return false;
    }
    MortarRowBatch that = (MortarRowBatch) o;
    return rowCount == that.rowCount
        && Arrays.equals(array(), 0, sizeInBytes(), that.array(), 0, that.sizeInBytes());
  }

  @Override
  public int hashCode() {
    int hash = rowCount;
    byte[] array = array();
    for (int i = 0; i < sizeInBytes(); i++) {
      hash = 31 * hash + array[i];
    }
    return hash;
  }

  @Override
  public String toString() {
    return "MortarRowBatch{task=" + task + ", " + rowCount + " rows, " + sizeInBytes() + " B}";
  }
}
