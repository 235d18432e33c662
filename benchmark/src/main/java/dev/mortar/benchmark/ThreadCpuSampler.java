package dev.mortar.benchmark;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * CPU time of threads by group, including threads that start or end while it runs: a daemon thread
 * reads the CPU time of every thread of each {@link Threads} source each period and keeps its last
 * reading, so a thread that ends loses at most its last period. A thread alive at the start counts
 * from its CPU time then; a thread started later counts from zero. A thread's group is read once,
 * when its id first appears; threads of no group are not read again.
 */
public final class ThreadCpuSampler implements AutoCloseable {
  /** Threads whose CPU time can be read, each by an id of its own while it lives. */
  public interface Threads {
    /** The ids of the threads alive now. */
    long[] ids();

    /** The group thread {@code id} counts in, or {@code null} if it is not counted or has ended. */
    String group(long id);

    /** The CPU nanoseconds thread {@code id} has used, or a negative number once it has ended. */
    long cpuNanos(long id);
  }

  private final List<Readings> sources = new ArrayList<>();
  private final long periodMillis;
  private final Thread sampler;
  private volatile boolean running = true;

  private ThreadCpuSampler(long periodMillis, Threads... sources) {
    for (Threads threads : sources) {
      this.sources.add(new Readings(threads));
    }
    this.periodMillis = periodMillis;
    this.sampler = new Thread(this::loop, "cpu-sampler");
    sampler.setDaemon(true);
  }

  /** Starts reading the threads of {@code sources} every {@code periodMillis} ms. */
  public static ThreadCpuSampler start(long periodMillis, Threads... sources) {
    ThreadCpuSampler sampler = new ThreadCpuSampler(periodMillis, sources);
    sampler.sample(true);
    sampler.sampler.start();
    return sampler;
  }

  /** Stops sampling and returns the CPU nanoseconds each group's threads used while it ran. */
  public Map<String, Long> stopAndSumByGroup() throws InterruptedException {
    close();
    sample(false);
    Map<String, Long> sums = new TreeMap<>();
    for (Readings readings : sources) {
      readings.addByGroup(sums);
    }
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
    for (Readings readings : sources) {
      readings.read(atStart);
    }
  }

  @Override
  public void close() throws InterruptedException {
    running = false;
    sampler.interrupt();
    sampler.join();
  }

  /** The group, first and last CPU reading of each thread of one source, by thread id. */
  private static final class Readings {
    private final Threads threads;
    private final Map<Long, String> groupOfThread = new HashMap<>();
    private final Map<Long, Long> startCpuNanos = new HashMap<>();
    private final Map<Long, Long> lastCpuNanos = new HashMap<>();

    Readings(Threads threads) {
      this.threads = threads;
    }

    void read(boolean atStart) {
      for (long id : threads.ids()) {
        if (!groupOfThread.containsKey(id)) {
          groupOfThread.put(id, threads.group(id));
        }
        if (groupOfThread.get(id) == null) {
          continue;
        }
        long cpu = threads.cpuNanos(id);
        if (cpu >= 0) {
          lastCpuNanos.put(id, cpu);
          if (atStart) {
            startCpuNanos.put(id, cpu);
          }
        }
      }
    }

    /** Adds the CPU nanoseconds each thread used since the start to its group's sum. */
    void addByGroup(Map<String, Long> sums) {
      lastCpuNanos.forEach(
          (id, cpu) ->
              sums.merge(
                  groupOfThread.get(id), cpu - startCpuNanos.getOrDefault(id, 0L), Long::sum));
    }
  }
}
