package dev.mortar.benchmark.serde;

import dev.mortar.benchmark.workload.WorkloadSchema;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Serialize + deserialize round trip of shuffle records, in records/ms: {@link SerdeContender}s
 * over Schema1 and Schema3 rows of the benchmark workload. Each invocation ships {@link #RECORDS}
 * records through one buffer and reads each record's metadata back (see {@link SerdeCase}), from
 * records built beforehand ({@code roundTrip}) or by the sender per record ({@code
 * buildAndRoundTrip}); run with {@code -prof gc} for bytes allocated per record ({@code
 * gc.alloc.rate.norm}, per operation = per record). {@link SerdeWireSizes} reports bytes on the
 * wire per record.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {
      "-Xms1g",
      "-Xmx1g",
      // Kryo reflects into JDK classes on Java 17: the opens every Flink job runs with.
      "--add-opens=java.base/java.lang=ALL-UNNAMED",
      "--add-opens=java.base/java.util=ALL-UNNAMED",
      "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
      "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED",
      "--add-opens=java.base/java.nio=ALL-UNNAMED",
      "--add-opens=java.base/java.io=ALL-UNNAMED"
    })
public class ShuffleRowSerdeBenchmark {
  /** Records per invocation. */
  public static final int RECORDS = 1_000;

  /** Seed of the workload rows, the same for every contender. */
  public static final long SEED = 20261122L;

  @Param({"SCHEMA1", "SCHEMA3"})
  public WorkloadSchema schema;

  @Param({"MORTAR", "MORTAR_BATCHED", "KRYO", "AVRO", "ROW_DATA", "HUDI_1_1"})
  public SerdeContender contender;

  private ShuffleCase serdeCase;

  @Setup(Level.Trial)
  public void setUp() {
    serdeCase = contender.prepare(schema.rowType(), ShuffleInput.generate(schema, RECORDS, SEED));
  }

  @Benchmark
  @OperationsPerInvocation(RECORDS)
  public void roundTrip(Blackhole blackhole) throws IOException {
    serdeCase.roundTrip(blackhole);
  }

  /**
   * The round trip with the sender's per-record work counted: each record is built from what the
   * sink's key/bucket step holds right before it is serialized. Mortar points a reused row at the
   * key and row bytes; RowData+meta joins the metadata and the row into one new binary row.
   */
  @Benchmark
  @OperationsPerInvocation(RECORDS)
  public void buildAndRoundTrip(Blackhole blackhole) throws IOException {
    serdeCase.buildAndRoundTrip(blackhole);
  }
}
