package dev.mortar.benchmark.logformat;

import dev.mortar.benchmark.ThroughputBenchmark;
import dev.mortar.benchmark.workload.WorkloadSchema;
import java.io.IOException;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * Encoding of AVRO_DATA_BLOCK content from {@code BinaryRowData}, in records/ms, for {@link
 * AvroBlockContender}s over Schema1 and Schema3. Each invocation encodes one block of {@link
 * #RECORDS} records; {@code -prof gc}'s {@code gc.alloc.rate.norm} is per record. MB/s = records/ms
 * × {@link #blockBytesPerRecord} / 1000 (all contenders write the same bytes).
 */
public class AvroBlockBenchmark extends ThroughputBenchmark {
  public static final int RECORDS = 1_000;
  public static final long SEED = 20261122L;

  @Param({"SCHEMA1", "SCHEMA3"})
  public WorkloadSchema schema;

  @Param({"MORTAR", "HUDI_1_0", "HUDI_1_1"})
  public AvroBlockContender contender;

  private AvroBlockContender.Encoder encoder;

  @Setup(Level.Trial)
  public void setUp() {
    encoder = contender.prepare(BlockInput.generate(schema, RECORDS, SEED));
  }

  @Benchmark
  @OperationsPerInvocation(RECORDS)
  public int encodeBlock() throws IOException {
    return encoder.encodeBlock();
  }

  /** Block content bytes per record of a schema (for MB/s). */
  public static double blockBytesPerRecord(WorkloadSchema schema) throws IOException {
    return (double)
            AvroBlockContender.MORTAR
                .prepare(BlockInput.generate(schema, RECORDS, SEED))
                .encodeBlock()
        / RECORDS;
  }
}
