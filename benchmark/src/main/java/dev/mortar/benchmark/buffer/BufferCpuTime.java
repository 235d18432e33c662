package dev.mortar.benchmark.buffer;

import dev.mortar.benchmark.workload.WorkloadSchema;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Buffer benchmark contenders ({@link BufferBenchmark}, {@link BufferPhasesBenchmark}) measured in
 * thread CPU time per record instead of wall time: on a machine shared with other work, CPU time
 * per record stays steady where JMH's throughput swings. The contenders take turns in one JVM,
 * round by round; each round gives each of them 200 warm-up cycles and then one CPU-second. Compare
 * contenders within a round: the JVM's speed moves between runs far more than between neighbours.
 *
 * <p>{@code java -cp benchmark/target/mortar-benchmarks.jar
 * dev.mortar.benchmark.buffer.BufferCpuTime SCHEMA1 [contender,contender,...] [rounds]}; by default
 * every contender of {@link BufferBenchmark}, 4 rounds.
 */
public final class BufferCpuTime {
  private static final List<Class<?>> BENCHMARK_CLASSES =
      List.of(BufferBenchmark.class, BufferPhasesBenchmark.class);

  private BufferCpuTime() {}

  public static void main(String[] args) throws Exception {
    WorkloadSchema schema = WorkloadSchema.parse(args.length == 0 ? "1" : args[0]);
    List<String> contenders =
        args.length > 1 ? Arrays.asList(args[1].split(",")) : benchmarksOf(BufferBenchmark.class);
    int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 4;
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    Blackhole blackhole =
        new Blackhole(
            "Today's password is swordfish. I understand instantiating Blackholes directly is"
                + " dangerous.");
    for (int round = 1; round <= rounds; round++) {
      for (String contender : contenders) {
        Class<?> benchmarkClass = declaringClass(contender);
        Object benchmark = benchmarkClass.getConstructor().newInstance();
        benchmarkClass.getField("schema").set(benchmark, schema);
        benchmarkClass.getMethod("setUp").invoke(benchmark);
        Method method = benchmarkClass.getMethod(contender, Blackhole.class);
        for (int i = 0; i < 200; i++) {
          method.invoke(benchmark, blackhole);
        }
        long start = threads.getCurrentThreadCpuTime();
        long invocations = 0;
        while (threads.getCurrentThreadCpuTime() - start < 1_000_000_000L) {
          method.invoke(benchmark, blackhole);
          invocations++;
        }
        double nanosPerRecord =
            (threads.getCurrentThreadCpuTime() - start)
                / (double) (invocations * BufferBenchmark.RECORDS);
        System.out.printf(
            "%s round %d %-24s %8.1f ns CPU/record%n", schema, round, contender, nanosPerRecord);
        benchmarkClass.getMethod("tearDown").invoke(benchmark);
      }
    }
  }

  private static Class<?> declaringClass(String contender) {
    return BENCHMARK_CLASSES.stream()
        .filter(candidate -> benchmarksOf(candidate).contains(contender))
        .findFirst()
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "no buffer benchmark has a contender named '"
                        + contender
                        + "'; they are "
                        + BENCHMARK_CLASSES.stream().map(BufferCpuTime::benchmarksOf).toList()));
  }

  /** The names of the {@code @Benchmark} methods of {@code benchmarkClass}, sorted. */
  private static List<String> benchmarksOf(Class<?> benchmarkClass) {
    return Arrays.stream(benchmarkClass.getMethods())
        .filter(method -> method.isAnnotationPresent(Benchmark.class))
        .map(Method::getName)
        .sorted()
        .toList();
  }
}
