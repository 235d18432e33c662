package dev.mortar.benchmark;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * CPU time of this JVM's threads by group, including threads that start or end while it runs: a
 * daemon thread reads every thread's CPU time each period and keeps its last reading, so a thread
 * that ends loses at most its last period. A thread alive at the start counts from its CPU time
 * then; a thread started later counts from zero. A thread's name is read once, when its id first
 * appears, and mapped to its group; threads mapped to {@code null} are not read again.
 *
 * <p>Only Java threads have a CPU time here: the JVM's own threads (garbage collector, JIT
 * compiler) are the process CPU time minus the sum over every Java thread.
 */
public final class ThreadCpuSampler implements AutoCloseable {
  private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
  private final Function<String, String> groupOfName;
  private final long periodMillis;
  private final Map<Long, String> groupOfThread = new HashMap<>();
  private final Map<Long, Long> startCpuNanos = new HashMap<>();
  private final Map<Long, Long> lastCpuNanos = new HashMap<>();
  private final Thread sampler;
  private volatile boolean running = true;

  private ThreadCpuSampler(Function<String, String> groupOfName, long periodMillis) {
    this.groupOfName = groupOfName;
    this.periodMillis = periodMillis;
    this.sampler = new Thread(this::loop, "cpu-sampler");
    sampler.setDaemon(true);
  }

  /**
   * Starts sampling every {@code periodMillis} ms.
   *
   * @param groupOfName the group of a thread by its name, or {@code null} for threads not counted
   */
  public static ThreadCpuSampler start(Function<String, String> groupOfName, long periodMillis) {
    ThreadCpuSampler sampler = new ThreadCpuSampler(groupOfName, periodMillis);
    sampler.sample(true);
    sampler.sampler.start();
    return sampler;
  }

  /** Stops sampling and returns the CPU nanoseconds each group's threads used while it ran. */
  public Map<String, Long> stopAndSumByGroup() throws InterruptedException {
    close();
    sample(false);
    Map<String, Long> sums = new TreeMap<>();
    lastCpuNanos.forEach(
        (id, cpu) ->
            sums.merge(groupOfThread.get(id), cpu - startCpuNanos.getOrDefault(id, 0L), Long::sum));
    return sums;
  }

  private void loop() {
    while (running) {
      try {
        Thread.sleep(periodMillis);
      } catch (InterruptedException e) {
        return;
      }
      sample(false);
    }
  }

  private synchronized void sample(boolean atStart) {
    for (long id : threads.getAllThreadIds()) {
      if (!groupOfThread.containsKey(id)) {
        ThreadInfo info = threads.getThreadInfo(id, 0);
        groupOfThread.put(id, info == null ? null : groupOfName.apply(info.getThreadName()));
      }
      if (groupOfThread.get(id) == null) {
        continue;
      }
      long cpu = threads.getThreadCpuTime(id);
      if (cpu >= 0) {
        lastCpuNanos.put(id, cpu);
        if (atStart) {
          startCpuNanos.put(id, cpu);
        }
      }
    }
  }

  @Override
  public void close() throws InterruptedException {
    running = false;
    sampler.interrupt();
    sampler.join();
  }
}
