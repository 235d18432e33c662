package dev.mortar.benchmark.buffer;

import dev.mortar.benchmark.ThroughputBenchmark;
import dev.mortar.benchmark.workload.WorkloadSchema;
import dev.mortar.buffer.BucketBuffer;
import dev.mortar.buffer.Deduplication;
import dev.mortar.buffer.PagePool;
import dev.mortar.serde.Operation;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.flink.formats.avro.RowDataToAvroConverters;
import org.apache.flink.formats.avro.RowDataToAvroConverters.RowDataToAvroConverter;
import org.apache.flink.formats.avro.typeutils.AvroSchemaConverter;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.runtime.operators.sort.BinaryInMemorySortBuffer;
import org.apache.flink.table.types.logical.RowType;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * One flush cycle of a write task's buffer, per record: append {@value #RECORDS} workload rows
 * (keys drawn from {@value #KEY_SPACE} values, so about half the appends replace an earlier record
 * of their key), iterate what is held, clear. Scores are records/ms; with {@code -prof gc}, {@code
 * gc.alloc.rate.norm} is bytes allocated per record. Every contender gets its input as a writer
 * does: one reused row and key, re-pointed at each record's bytes (the key and then the row in one
 * array, as the shuffle's wire record holds them).
 *
 * <ul>
 *   <li>{@code mortarDedup}, {@code mortarDedupOnRead}, {@code mortarNoDedup}: {@link BucketBuffer}
 *       with de-dup on append, on read (the writer's default: the index is built when the cursor is
 *       opened) and off.
 *   <li>{@code copiesInArrayList}: (a) {@code BinaryRowData.copy()} in an {@code ArrayList}, a
 *       {@code HashMap} from copied key to list index for de-dup.
 *   <li>{@code avroGenericRecords}: (b) the legacy Hudi path: each row converted to an Avro {@code
 *       GenericRecord}, a list plus a {@code HashMap} from the String key for de-dup.
 *   <li>{@code flinkSortBufferNoDedup}: (c) Hudi 1.1's buffer, Flink's {@code
 *       BinaryInMemorySortBuffer} in natural order over a heap page pool; it does not de-duplicate
 *       (Hudi 1.1's default), so compare it with {@code mortarNoDedup}.
 * </ul>
 *
 * <p>Warm-up is 10 s: (c)'s compiled code keeps getting faster for longer than 4 s, so a shorter
 * warm-up measures it too slow (rfc/0002).
 */
@OperationsPerInvocation(BufferBenchmark.RECORDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 3, time = 2)
public class BufferBenchmark extends ThroughputBenchmark {
  static final int RECORDS = 4096;
  static final int KEY_SPACE = RECORDS / 2;
  static final int PAGE_SIZE = 64 * 1024;
  static final long BUDGET = 256L << 20;

  @Param({"SCHEMA1", "SCHEMA3"})
  public WorkloadSchema schema;

  private BufferInput input;

  /** {@link #input}'s reused row and key. */
  private BinaryRowData row;

  private BinaryStringData key;

  private PagePool pool;
  private BucketBuffer dedupBuffer;
  private BucketBuffer onReadBuffer;
  private BucketBuffer plainBuffer;

  private final List<HeldRow> heldRows = new ArrayList<>();
  private final Map<BinaryStringData, Integer> heldIndex = new HashMap<>();

  private Schema avroSchema;
  private RowDataToAvroConverter avroConverter;
  private final List<GenericRecord> avroRecords = new ArrayList<>();
  private final Map<String, Integer> avroIndex = new HashMap<>();

  private BinaryInMemorySortBuffer sortBuffer;
  private BinaryRowData sortReuse;

  /** A copied record of baseline (a). */
  private record HeldRow(
      BinaryStringData key, long ordering, Operation operation, BinaryRowData row) {}

  @Setup(Level.Trial)
  public void setUp() {
    input = new BufferInput(schema, RECORDS, KEY_SPACE);
    row = input.row();
    key = input.key();
    pool = PagePool.onHeap(PAGE_SIZE, BUDGET);
    dedupBuffer = pool.newBuffer("dedup", Deduplication.ON_APPEND);
    onReadBuffer = pool.newBuffer("on-read", Deduplication.ON_READ);
    plainBuffer = pool.newBuffer("plain", Deduplication.OFF);

    RowType rowType = schema.rowType();
    avroSchema = AvroSchemaConverter.convertToSchema(rowType);
    avroConverter = RowDataToAvroConverters.createConverter(rowType);

    sortBuffer = BufferInput.newSortBuffer(rowType, PAGE_SIZE, BUDGET);
    sortReuse = new BinaryRowData(rowType.getFieldCount());
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    dedupBuffer.release();
    onReadBuffer.release();
    plainBuffer.release();
    pool.close();
    sortBuffer.dispose();
  }

  @Benchmark
  public void mortarDedup(Blackhole blackhole) {
    cycle(dedupBuffer, blackhole);
  }

  @Benchmark
  public void mortarDedupOnRead(Blackhole blackhole) {
    cycle(onReadBuffer, blackhole);
  }

  @Benchmark
  public void mortarNoDedup(Blackhole blackhole) {
    cycle(plainBuffer, blackhole);
  }

  private void cycle(BucketBuffer buffer, Blackhole blackhole) {
    input.appendTo(buffer);
    BufferReads.readAll(buffer, blackhole);
    buffer.clear();
  }

  @Benchmark
  public void copiesInArrayList(Blackhole blackhole) {
    for (int i = 0; i < RECORDS; i++) {
      input.pointAt(i);
      Integer index = heldIndex.get(key);
      if (index == null) {
        BinaryStringData copiedKey = key.copy();
        heldIndex.put(copiedKey, heldRows.size());
        heldRows.add(new HeldRow(copiedKey, i, Operation.UPDATE, row.copy()));
      } else if (i >= heldRows.get(index).ordering()) {
        heldRows.set(index, new HeldRow(key.copy(), i, Operation.UPDATE, row.copy()));
      }
    }
    for (HeldRow held : heldRows) {
      blackhole.consume(held.key());
      blackhole.consume(held.row());
    }
    heldRows.clear();
    heldIndex.clear();
  }

  @Benchmark
  public void avroGenericRecords(Blackhole blackhole) {
    for (int i = 0; i < RECORDS; i++) {
      input.pointAt(i);
      GenericRecord record = (GenericRecord) avroConverter.convert(avroSchema, row);
      String key = String.valueOf(record.get(0));
      Integer index = avroIndex.get(key);
      if (index == null) {
        avroIndex.put(key, avroRecords.size());
        avroRecords.add(record);
      } else {
        avroRecords.set(index, record);
      }
    }
    for (GenericRecord record : avroRecords) {
      blackhole.consume(record);
    }
    avroRecords.clear();
    avroIndex.clear();
  }

  @Benchmark
  public void flinkSortBufferNoDedup(Blackhole blackhole) throws IOException {
    input.writeTo(sortBuffer);
    BufferReads.readAll(sortBuffer, sortReuse, blackhole);
    sortBuffer.reset();
  }
}
