package dev.mortar.benchmark.serde;

import dev.mortar.benchmark.CompilerBlackhole;
import dev.mortar.benchmark.workload.WorkloadSchema;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The JMH round trip of {@link ShuffleRowSerdeBenchmark} timed by thread CPU time instead of wall
 * time, with the contenders interleaved round by round: ratios that survive a machine shared with
 * other work (descheduled time is not counted, and every contender sees the same load). Prints the
 * median records per CPU-millisecond of each contender per schema.
 *
 * <p>Run: {@code java <Flink's --add-opens> <CompilerBlackhole.JVM_OPTIONS> -cp
 * benchmark/target/mortar-benchmarks.jar dev.mortar.benchmark.serde.SerdeCpuTimeComparison
 * [rounds]}.
 */
public final class SerdeCpuTimeComparison {
  private static final int INVOCATIONS_PER_SAMPLE = 20;

  private SerdeCpuTimeComparison() {}

  public static void main(String[] args) throws Exception {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 15;
    Blackhole blackhole = CompilerBlackhole.create("SerdeCpuTimeComparison");
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    System.out.printf(
        "schema   | contender | records per CPU-ms (median of %d interleaved rounds)%n", rounds);
    for (WorkloadSchema schema : List.of(WorkloadSchema.SCHEMA1, WorkloadSchema.SCHEMA3)) {
      List<ShuffleInput> inputs =
          ShuffleInput.generate(
              schema, ShuffleRowSerdeBenchmark.RECORDS, ShuffleRowSerdeBenchmark.SEED);
      Map<SerdeContender, ShuffleCase> cases = new EnumMap<>(SerdeContender.class);
      Map<SerdeContender, double[]> samples = new EnumMap<>(SerdeContender.class);
      for (SerdeContender contender : SerdeContender.values()) {
        cases.put(contender, contender.prepare(schema.rowType(), inputs));
        samples.put(contender, new double[rounds]);
        long warmUpEnd = System.nanoTime() + 2_000_000_000L;
        while (System.nanoTime() < warmUpEnd) {
          cases.get(contender).roundTrip(blackhole);
        }
      }
      for (int round = 0; round < rounds; round++) {
        for (SerdeContender contender : SerdeContender.values()) {
          ShuffleCase serdeCase = cases.get(contender);
          long start = threads.getCurrentThreadCpuTime();
          for (int i = 0; i < INVOCATIONS_PER_SAMPLE; i++) {
            serdeCase.roundTrip(blackhole);
          }
          long cpuNanos = threads.getCurrentThreadCpuTime() - start;
          samples.get(contender)[round] =
              (double) INVOCATIONS_PER_SAMPLE * ShuffleRowSerdeBenchmark.RECORDS / (cpuNanos / 1e6);
        }
      }
      for (SerdeContender contender : SerdeContender.values()) {
        double[] values = samples.get(contender);
        Arrays.sort(values);
        System.out.printf(
            "%-8s | %-9s | %,10.0f  (min %,.0f, max %,.0f)%n",
            schema, contender, values[values.length / 2], values[0], values[values.length - 1]);
      }
    }
  }
}
