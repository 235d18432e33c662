package dev.mortar.benchmark.buffer;

import dev.mortar.benchmark.workload.WorkloadSchema;
import dev.mortar.buffer.BucketBuffer;
import dev.mortar.serde.Operation;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.core.memory.MemorySegmentFactory;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.runtime.operators.sort.BinaryInMemorySortBuffer;
import org.apache.flink.table.runtime.typeutils.BinaryRowDataSerializer;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.RowType;

/**
 * The records the buffer benchmarks append, as a writer gets them: each record's key (its {@code
 * item_id} as a decimal string) and then its row in one array, as the shuffle's wire record holds
 * them (serde's {@code MortarRowWireFormat}), and one reused key and row that {@link #pointAt}
 * re-points at a record, as a reusing deserializer does. Keys are drawn from {@code keySpace}
 * values, so with more records than keys some records replace an earlier one of their key.
 */
final class BufferInput {
  private final MemorySegment[][] records;
  private final int[] rowLengths;
  private final int[] keyLengths;
  private final BinaryRowData row;
  private final BinaryStringData key;

  BufferInput(WorkloadSchema schema, int recordCount, int keySpace) {
    WorkloadSchema.RowGenerator generator = schema.generator(20261122L);
    SplittableRandom random = new SplittableRandom(7);
    records = new MemorySegment[recordCount][];
    rowLengths = new int[recordCount];
    keyLengths = new int[recordCount];
    for (int i = 0; i < recordCount; i++) {
      long itemId = random.nextInt(keySpace);
      BinaryRowData generated = generator.next();
      generated.setLong(0, itemId);
      byte[] keyBytes = Long.toString(itemId).getBytes(StandardCharsets.UTF_8);
      int rowLength = generated.getSizeInBytes();
      byte[] record = new byte[keyBytes.length + rowLength];
      System.arraycopy(keyBytes, 0, record, 0, keyBytes.length);
      generated.getSegments()[0].get(generated.getOffset(), record, keyBytes.length, rowLength);
      records[i] = new MemorySegment[] {MemorySegmentFactory.wrap(record)};
      rowLengths[i] = rowLength;
      keyLengths[i] = keyBytes.length;
    }
    row = new BinaryRowData(schema.rowType().getFieldCount());
    key = BinaryStringData.fromAddress(records[0], 0, keyLengths[0]);
  }

  /** Points {@link #row()} and {@link #key()} at record {@code i}. */
  void pointAt(int i) {
    row.pointTo(records[i], keyLengths[i], rowLengths[i]);
    key.setJavaObject(null);
    key.getBinarySection().pointTo(records[i], 0, keyLengths[i]);
  }

  /**
   * Appends every record to {@code buffer}, in order, its index as the ordering value.
   *
   * @throws IllegalStateException when the buffer is full: the benchmark's budget is too small
   */
  void appendTo(BucketBuffer buffer) {
    for (int i = 0; i < records.length; i++) {
      pointAt(i);
      if (!buffer.append(key, i, Operation.UPDATE, row)) {
        throw new IllegalStateException("benchmark budget too small: buffer full at record " + i);
      }
    }
  }

  /**
   * Writes every record's row to {@code buffer}, in order.
   *
   * @throws IllegalStateException when the buffer is full: the benchmark's budget is too small
   */
  void writeTo(BinaryInMemorySortBuffer buffer) throws IOException {
    for (int i = 0; i < records.length; i++) {
      pointAt(i);
      if (!buffer.write(row)) {
        throw new IllegalStateException("benchmark budget too small: sort buffer full at " + i);
      }
    }
  }

  BinaryRowData row() {
    return row;
  }

  BinaryStringData key() {
    return key;
  }

  /**
   * Baseline (c): Hudi 1.1's buffer, Flink's {@code BinaryInMemorySortBuffer} in natural order over
   * a heap page pool of {@code budget} bytes in pages of {@code pageSize}.
   */
  static BinaryInMemorySortBuffer newSortBuffer(RowType rowType, int pageSize, long budget) {
    return BinaryInMemorySortBuffer.createBuffer(
        new NaturalOrder(),
        new RowDataSerializer(rowType),
        new BinaryRowDataSerializer(rowType.getFieldCount()),
        new NaturalOrder(),
        new HeapSegmentPool(pageSize, budget));
  }
}
