package dev.mortar.benchmark.logformat;

import dev.mortar.benchmark.ThroughputBenchmark;
import dev.mortar.benchmark.workload.WorkloadSchema;
import dev.mortar.logformat.ParquetCodec;
import java.io.IOException;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * Encoding of PARQUET_DATA_BLOCK content (one complete Parquet file, meta fields included) per
 * codec, with and without dictionary encoding, in records/ms, for each {@link
 * ParquetBlockContender}. MB/s is reported on the same logical basis as {@link AvroBlockBenchmark}
 * (Avro block bytes per record), so the two read side by side.
 */
public class ParquetBlockBenchmark extends ThroughputBenchmark {
  public static final int RECORDS = 2_000;

  @Param({"SCHEMA1", "SCHEMA3"})
  public WorkloadSchema schema;

  @Param({"SNAPPY", "ZSTD", "GZIP", "NONE"})
  public ParquetCodec codec;

  /** Dictionary encoding attempted (Hudi's default) or off. */
  @Param({"true", "false"})
  public boolean dictionary;

  @Param({
    "MORTAR",
    "ROW_DATA_GETTERS",
    "MORTAR_DICTIONARY_PER_COLUMN",
    "PAIMON",
    "PARQUET_MR_FLOOR"
  })
  public ParquetBlockContender contender;

  private ParquetBlockContender.Encoder encoder;

  @Setup(Level.Trial)
  public void setUp() {
    BlockInput input = BlockInput.generate(schema, RECORDS, AvroBlockBenchmark.SEED);
    encoder = contender.prepare(input, codec, dictionary);
  }

  @Benchmark
  @OperationsPerInvocation(RECORDS)
  public int encodeBlock() throws IOException {
    return encoder.encodeBlock();
  }
}
