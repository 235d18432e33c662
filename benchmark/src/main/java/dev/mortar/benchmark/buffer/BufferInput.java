package dev.mortar.benchmark.buffer;

import dev.mortar.benchmark.workload.WorkloadSchema;
import dev.mortar.buffer.BucketBuffer;
import dev.mortar.serde.Operation;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.core.memory.MemorySegmentFactory;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.runtime.operators.sort.BinaryInMemorySortBuffer;
import org.apache.flink.table.runtime.typeutils.BinaryRowDataSerializer;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.RowType;

/**
 * The records the buffer benchmarks append, as a write task gets them from the shuffle: back to
 * back in one array, each a wire record of serde's {@code MortarRowWireFormat} (a prefix, the key,
 * which is the {@code item_id} as a decimal string, then the row), and one reused key and row that
 * {@link #pointAt} re-points at a record, as the batch reader does. Keys are drawn from {@code
 * keySpace} values, so with more records than keys some records replace an earlier one of their
 * key.
 *
 * <p>The records share one array, as the shuffle delivers them: with an array per record, the
 * distance between a record and the buffer's copy of it depends on where the JVM puts those arrays,
 * and the benchmark's result moves with the heap flags (rfc/0002).
 */
final class BufferInput {
  /** The bytes of a Schema1 record's wire prefix: header, bucket, key length, row length. */
  private static final byte[] NO_PREFIX = new byte[5];

  private final MemorySegment[] records;
  private final int[] keyOffsets;
  private final int[] rowLengths;
  private final int[] keyLengths;
  private final BinaryRowData row;
  private final BinaryStringData key;

  BufferInput(WorkloadSchema schema, int recordCount, int keySpace) {
    WorkloadSchema.RowGenerator generator = schema.generator(20261122L);
    SplittableRandom random = new SplittableRandom(7);
    keyOffsets = new int[recordCount];
    rowLengths = new int[recordCount];
    keyLengths = new int[recordCount];
    DataOutputSerializer wire = new DataOutputSerializer(1 << 16);
    try {
      for (int i = 0; i < recordCount; i++) {
        long itemId = random.nextInt(keySpace);
        BinaryRowData generated = generator.next();
        generated.setLong(0, itemId);
        byte[] keyBytes = Long.toString(itemId).getBytes(StandardCharsets.UTF_8);
        wire.write(NO_PREFIX); // stands for the prefix, which the buffer never reads
        keyOffsets[i] = wire.length();
        wire.write(keyBytes);
        wire.write(generated.getSegments()[0], generated.getOffset(), generated.getSizeInBytes());
        rowLengths[i] = generated.getSizeInBytes();
        keyLengths[i] = keyBytes.length;
      }
    } catch (IOException e) {
      throw new UncheckedIOException("writing to a heap array failed", e);
    }
    records = new MemorySegment[] {MemorySegmentFactory.wrap(wire.getCopyOfBuffer())};
    row = new BinaryRowData(schema.rowType().getFieldCount());
    key = BinaryStringData.fromAddress(records, keyOffsets[0], keyLengths[0]);
  }

  /** Points {@link #row()} and {@link #key()} at record {@code i}. */
  void pointAt(int i) {
    row.pointTo(records, keyOffsets[i] + keyLengths[i], rowLengths[i]);
    key.setJavaObject(null);
    key.getBinarySection().pointTo(records, keyOffsets[i], keyLengths[i]);
  }

  /**
   * Appends every record to {@code buffer}, in order, its index as the ordering value.
   *
   * @throws IllegalStateException when the buffer is full: the benchmark's budget is too small
   */
  void appendTo(BucketBuffer buffer) {
    for (int i = 0; i < keyOffsets.length; i++) {
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
    for (int i = 0; i < keyOffsets.length; i++) {
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
