package dev.mortar.benchmark.logformat;

import dev.mortar.benchmark.ThroughputBenchmark;
import dev.mortar.benchmark.workload.WorkloadSchema;
import dev.mortar.logformat.AvroSchemas;
import dev.mortar.logformat.BlockBuffer;
import dev.mortar.logformat.MetaFieldValues;
import dev.mortar.logformat.ParquetBlockBuilder;
import dev.mortar.logformat.ParquetCodec;
import java.io.IOException;
import org.apache.flink.table.types.logical.RowType;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * Encoding of PARQUET_DATA_BLOCK content (one complete Parquet file, meta fields included) per
 * codec, with and without dictionary encoding, in records/ms. MB/s is reported on the same logical
 * basis as {@link AvroBlockBenchmark} (Avro block bytes per record), so the two read side by side.
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

  private BlockInput input;
  private ParquetBlockBuilder builder;

  @Setup(Level.Trial)
  public void setUp() {
    input = BlockInput.generate(schema, RECORDS, AvroBlockBenchmark.SEED);
    RowType rowType = schema.rowType();
    MetaFieldValues meta =
        new MetaFieldValues(
            BlockInput.INSTANT, BlockInput.WRITE_TOKEN, BlockInput.PARTITION, BlockInput.FILE_ID);
    builder =
        new ParquetBlockBuilder(
            rowType,
            AvroSchemas.of(rowType, "record", true),
            meta,
            codec,
            dictionary,
            new BlockBuffer(1 << 20));
  }

  @Benchmark
  @OperationsPerInvocation(RECORDS)
  public int encodeBlock() throws IOException {
    for (int i = 0; i < RECORDS; i++) {
      builder.add(input.keys.get(i), i, input.rows.get(i));
    }
    return builder.finishBlock().size();
  }
}
