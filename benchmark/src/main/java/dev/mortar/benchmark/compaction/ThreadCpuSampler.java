package dev.mortar.benchmark.compaction;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * CPU time of the threads whose names start with a prefix, including threads that end while it
 * runs: a daemon thread reads their CPU time every {@link #PERIOD_MILLIS} ms and keeps each
 * thread's last reading, so a thread that ends loses at most its last period. A thread's name is
 * looked up once, when its id first appears, which keeps the sampler's own CPU small.
 */
final class ThreadCpuSampler implements AutoCloseable {
  static final long PERIOD_MILLIS = 10;

  private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
  private final String prefix;
  private final Map<Long, Long> lastCpuNanos = new HashMap<>();
  private final Set<Long> otherThreads = new HashSet<>();
  private final Thread sampler;
  private volatile boolean running = true;

  private ThreadCpuSampler(String prefix) {
    this.prefix = prefix;
    this.sampler = new Thread(this::loop, "cpu-sampler-" + prefix);
    sampler.setDaemon(true);
  }

  /** Starts sampling the threads named {@code prefix*}. */
  static ThreadCpuSampler start(String prefix) {
    ThreadCpuSampler sampler = new ThreadCpuSampler(prefix);
    sampler.sampler.start();
    return sampler;
  }

  /** Stops sampling and returns the CPU time the matching threads used while it ran. */
  long stopAndSumNanos() throws InterruptedException {
    running = false;
    sampler.join();
    sample();
    return lastCpuNanos.values().stream().mapToLong(Long::longValue).sum();
  }

  private void loop() {
    while (running) {
      sample();
      try {
        Thread.sleep(PERIOD_MILLIS);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  private synchronized void sample() {
    for (long id : threads.getAllThreadIds()) {
      if (otherThreads.contains(id)) {
        continue;
      }
      if (!lastCpuNanos.containsKey(id)) {
        ThreadInfo info = threads.getThreadInfo(id, 0);
        if (info == null || !info.getThreadName().startsWith(prefix)) {
          otherThreads.add(id);
          continue;
        }
      }
      long cpu = threads.getThreadCpuTime(id);
      if (cpu >= 0) {
        lastCpuNanos.put(id, cpu);
      }
    }
  }

  @Override
  public void close() throws InterruptedException {
    running = false;
    sampler.join();
  }
}
