package dev.mortar.benchmark.buffer;

import dev.mortar.benchmark.ThroughputBenchmark;
import dev.mortar.benchmark.workload.WorkloadSchema;
import dev.mortar.buffer.BucketBuffer;
import dev.mortar.buffer.Deduplication;
import dev.mortar.buffer.PagePool;
import java.io.IOException;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.runtime.operators.sort.BinaryInMemorySortBuffer;
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
 * The two halves of {@link BufferBenchmark}'s cycle apart, for Mortar without de-dup and baseline
 * (c), Flink's sort buffer, on the same input: {@code *Append} appends the {@value
 * BufferBenchmark#RECORDS} records and clears; {@code *Iterate} walks a buffer filled once with
 * them (the sort buffer yields rows, Mortar keys and rows). Scores are records/ms. It tells which
 * half a gap in the whole cycle comes from.
 */
@OperationsPerInvocation(BufferBenchmark.RECORDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 3, time = 2)
public class BufferPhasesBenchmark extends ThroughputBenchmark {
  @Param({"SCHEMA1", "SCHEMA3"})
  public WorkloadSchema schema;

  private BufferInput input;
  private PagePool pool;
  private BucketBuffer appendedBuffer;
  private BucketBuffer filledBuffer;
  private BinaryInMemorySortBuffer appendedSortBuffer;
  private BinaryInMemorySortBuffer filledSortBuffer;
  private BinaryRowData sortReuse;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    input = new BufferInput(schema, BufferBenchmark.RECORDS, BufferBenchmark.KEY_SPACE);
    pool = PagePool.onHeap(BufferBenchmark.PAGE_SIZE, BufferBenchmark.BUDGET);
    appendedBuffer = pool.newBuffer("appended", Deduplication.OFF);
    filledBuffer = pool.newBuffer("filled", Deduplication.OFF);
    appendedSortBuffer = newSortBuffer();
    filledSortBuffer = newSortBuffer();
    sortReuse = new BinaryRowData(schema.rowType().getFieldCount());
    input.appendTo(filledBuffer);
    input.writeTo(filledSortBuffer);
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    appendedBuffer.release();
    filledBuffer.release();
    pool.close();
    appendedSortBuffer.dispose();
    filledSortBuffer.dispose();
  }

  @Benchmark
  public void mortarAppend() {
    input.appendTo(appendedBuffer);
    appendedBuffer.clear();
  }

  @Benchmark
  public void sortBufferAppend() throws IOException {
    input.writeTo(appendedSortBuffer);
    appendedSortBuffer.reset();
  }

  @Benchmark
  public void mortarIterate(Blackhole blackhole) {
    BufferReads.readAll(filledBuffer, blackhole);
  }

  @Benchmark
  public void sortBufferIterate(Blackhole blackhole) throws IOException {
    BufferReads.readAll(filledSortBuffer, sortReuse, blackhole);
  }

  private BinaryInMemorySortBuffer newSortBuffer() {
    return BufferInput.newSortBuffer(
        schema.rowType(), BufferBenchmark.PAGE_SIZE, BufferBenchmark.BUDGET);
  }
}
