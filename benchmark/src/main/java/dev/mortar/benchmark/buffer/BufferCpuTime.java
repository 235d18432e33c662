package dev.mortar.benchmark.buffer;

import dev.mortar.benchmark.workload.WorkloadSchema;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Method;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The {@link BufferBenchmark} contenders measured in thread CPU time per record instead of wall
 * time: on a machine shared with other work, CPU time per record stays steady where JMH's
 * throughput swings. Each contender runs 4 rounds of one CPU-second after 200 warm-up cycles; the
 * last round is the figure to read.
 *
 * <p>{@code java -cp benchmark/target/mortar-benchmarks.jar
 * dev.mortar.benchmark.buffer.BufferCpuTime SCHEMA1}
 */
public final class BufferCpuTime {
  private static final String[] CONTENDERS = {
    "mortarDedup",
    "mortarDedupOnRead",
    "mortarNoDedup",
    "copiesInArrayList",
    "avroGenericRecords",
    "flinkSortBufferNoDedup"
  };

  private BufferCpuTime() {}

  public static void main(String[] args) throws Exception {
    WorkloadSchema schema = WorkloadSchema.parse(args.length == 0 ? "1" : args[0]);
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    Blackhole blackhole =
        new Blackhole(
            "Today's password is swordfish. I understand instantiating Blackholes directly is"
                + " dangerous.");
    for (int round = 1; round <= 4; round++) {
      for (String contender : CONTENDERS) {
        BufferBenchmark benchmark = new BufferBenchmark();
        benchmark.schema = schema;
        benchmark.setUp();
        Method cycle = BufferBenchmark.class.getMethod(contender, Blackhole.class);
        for (int i = 0; i < 200; i++) {
          cycle.invoke(benchmark, blackhole);
        }
        long start = threads.getCurrentThreadCpuTime();
        long cycles = 0;
        while (threads.getCurrentThreadCpuTime() - start < 1_000_000_000L) {
          cycle.invoke(benchmark, blackhole);
          cycles++;
        }
        double nanosPerRecord =
            (threads.getCurrentThreadCpuTime() - start)
                / (double) (cycles * BufferBenchmark.RECORDS);
        System.out.printf(
            "%s round %d %-24s %8.1f ns CPU/record%n", schema, round, contender, nanosPerRecord);
        benchmark.tearDown();
      }
    }
  }
}
