package dev.mortar.benchmark.serde;

import dev.mortar.benchmark.workload.WorkloadSchema;
import dev.mortar.serde.PayloadWriter;
import java.util.concurrent.TimeUnit;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
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
 * The writer's payload step, in ns per record: the workload's rows, as Flink's internal objects
 * ({@code GenericRowData}), made into binary rows by Mortar's {@link PayloadWriter} (no padding
 * after strings) or by Flink's own writer through {@code RowDataSerializer.toBinaryRow}, the
 * baseline. Both reuse one output row.
 *
 * <p>Two floors beside them: one copy of a binary row's bytes into a reused array ({@link
 * #copyRowBytes}), what each move of a row's bytes costs at least; and Flink's deep copy of a row
 * whose strings hold their bytes ({@link #flinkChainedCopy}), what Flink does for every operator
 * chained to another when object reuse is off.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class PayloadWriterBenchmark {
  @Param({"SCHEMA1", "SCHEMA3"})
  public WorkloadSchema schema;

  private GenericRowData[] rows;
  private PayloadWriter payloadWriter;
  private RowDataSerializer flinkWriter;
  private BinaryRowData[] binaryRows;
  private GenericRowData[] materializedRows;
  private byte[] scratch;

  @Setup(Level.Trial)
  public void setUp() {
    rows =
        ShuffleInput.generate(
                schema, ShuffleRowSerdeBenchmark.RECORDS, ShuffleRowSerdeBenchmark.SEED)
            .stream()
            .map(ShuffleInput::row)
            .toArray(GenericRowData[]::new);
    payloadWriter = new PayloadWriter(schema.rowType());
    flinkWriter = new RowDataSerializer(schema.rowType());
    binaryRows = new BinaryRowData[rows.length];
    materializedRows = new GenericRowData[rows.length];
    int largest = 0;
    for (int i = 0; i < rows.length; i++) {
      binaryRows[i] = payloadWriter.toBinaryRow(rows[i]).copy();
      materializedRows[i] = (GenericRowData) flinkWriter.copy(rows[i]);
      largest = Math.max(largest, binaryRows[i].getSizeInBytes());
    }
    scratch = new byte[largest];
  }

  @Benchmark
  @OperationsPerInvocation(ShuffleRowSerdeBenchmark.RECORDS)
  public void mortarPayloadWriter(Blackhole blackhole) {
    for (GenericRowData row : rows) {
      blackhole.consume(payloadWriter.toBinaryRow(row));
    }
  }

  @Benchmark
  @OperationsPerInvocation(ShuffleRowSerdeBenchmark.RECORDS)
  public void flinkBinaryRowWriter(Blackhole blackhole) {
    for (GenericRowData row : rows) {
      blackhole.consume(flinkWriter.toBinaryRow(row));
    }
  }

  @Benchmark
  @OperationsPerInvocation(ShuffleRowSerdeBenchmark.RECORDS)
  public void copyRowBytes(Blackhole blackhole) {
    for (BinaryRowData row : binaryRows) {
      row.getSegments()[0].get(row.getOffset(), scratch, 0, row.getSizeInBytes());
      blackhole.consume(scratch);
    }
  }

  @Benchmark
  @OperationsPerInvocation(ShuffleRowSerdeBenchmark.RECORDS)
  public void flinkChainedCopy(Blackhole blackhole) {
    for (GenericRowData row : materializedRows) {
      blackhole.consume(flinkWriter.copy(row));
    }
  }
}
