package dev.mortar.benchmark.buffer;

import com.sun.management.OperatingSystemMXBean;
import dev.mortar.benchmark.CompilerBlackhole;
import dev.mortar.benchmark.workload.WorkloadSchema;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Buffer benchmark contenders ({@link BufferBenchmark}, {@link BufferPhasesBenchmark}) measured in
 * thread CPU time per record instead of wall time: on a machine shared with other work, CPU time
 * per record stays steady where JMH's throughput swings. The contenders take turns in one JVM,
 * round by round; each round gives each of them 200 warm-up cycles and then one CPU-second. Compare
 * contenders within a round: the JVM's speed moves between runs far more than between neighbours.
 * Each line gives the thread's CPU time and the process's: the thread's leaves out what a
 * contender's garbage costs the GC threads (the sort buffer allocates 24 B per record), the
 * process's counts it, and also any JIT compilation still running.
 *
 * <p>The records go to a {@link Blackhole} in its compiler mode, as in a JMH fork on JDK 17, where
 * handing a value over costs nothing. Its other mode costs a call and a volatile read per value;
 * Mortar's cursor hands over a key and a row per record where (c) hands over a row, so until the
 * eighteenth session this harness charged Mortar a call per record more than (c), which JMH does
 * not (rfc/0002). The JVM must therefore run with {@link CompilerBlackhole#JVM_OPTIONS}:
 *
 * <p>{@code java -Xms1g -Xmx1g <those options> -cp benchmark/target/mortar-benchmarks.jar
 * dev.mortar.benchmark.buffer.BufferCpuTime SCHEMA1 [contender,contender,...] [rounds]}; by default
 * every contender of {@link BufferBenchmark}, 4 rounds.
 */
public final class BufferCpuTime {
  private static final List<Class<?>> BENCHMARK_CLASSES =
      List.of(BufferBenchmark.class, BufferPhasesBenchmark.class);

  private BufferCpuTime() {}

  public static void main(String[] args) throws Exception {
    Blackhole blackhole = CompilerBlackhole.create("BufferCpuTime");
    WorkloadSchema schema = WorkloadSchema.parse(args.length == 0 ? "1" : args[0]);
    List<Method> contenders =
        args.length > 1
            ? Arrays.stream(args[1].split(",")).map(BufferCpuTime::contender).toList()
            : benchmarksOf(BufferBenchmark.class);
    int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 4;
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    OperatingSystemMXBean process =
        (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    for (int round = 1; round <= rounds; round++) {
      for (Method method : contenders) {
        Class<?> benchmarkClass = method.getDeclaringClass();
        Object benchmark = benchmarkClass.getConstructor().newInstance();
        benchmarkClass.getField("schema").set(benchmark, schema);
        benchmarkClass.getMethod("setUp").invoke(benchmark);
        Object[] arguments =
            method.getParameterCount() == 0 ? new Object[0] : new Object[] {blackhole};
        for (int i = 0; i < 200; i++) {
          method.invoke(benchmark, arguments);
        }
        long start = threads.getCurrentThreadCpuTime();
        long processStart = process.getProcessCpuTime();
        long invocations = 0;
        while (threads.getCurrentThreadCpuTime() - start < 1_000_000_000L) {
          method.invoke(benchmark, arguments);
          invocations++;
        }
        double records = invocations * (double) BufferBenchmark.RECORDS;
        System.out.printf(
            "%s round %d %-24s %8.1f ns thread CPU/record %8.1f ns process CPU/record%n",
            schema,
            round,
            method.getName(),
            (threads.getCurrentThreadCpuTime() - start) / records,
            (process.getProcessCpuTime() - processStart) / records);
        benchmarkClass.getMethod("tearDown").invoke(benchmark);
      }
    }
  }

  /** The benchmark method named {@code name} in one of {@link #BENCHMARK_CLASSES}. */
  private static Method contender(String name) {
    List<Method> all =
        BENCHMARK_CLASSES.stream().flatMap(candidate -> benchmarksOf(candidate).stream()).toList();
    return all.stream()
        .filter(method -> method.getName().equals(name))
        .findFirst()
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "no buffer benchmark has a contender named '"
                        + name
                        + "'; they are "
                        + all.stream().map(Method::getName).toList()));
  }

  /** The {@code @Benchmark} methods of {@code benchmarkClass}, by name. */
  private static List<Method> benchmarksOf(Class<?> benchmarkClass) {
    return Arrays.stream(benchmarkClass.getMethods())
        .filter(method -> method.isAnnotationPresent(Benchmark.class))
        .sorted(Comparator.comparing(Method::getName))
        .toList();
  }
}
