package dev.mortar.benchmark.e2e;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;

/**
 * Whole-process resource meters of this JVM: CPU time of all threads, time spent in garbage
 * collection, the peak of the heap pools and the heap in use after a full collection.
 *
 * <p>Figures are process-wide on purpose: source, shuffle, writer and Flink's own threads all
 * count, as they do for a job on a real TaskManager.
 */
public final class ProcessMeters {
  private ProcessMeters() {}

  /** CPU time and GC time at one instant; subtract two to measure a job. */
  public record Reading(long cpuNanos, long gcMillis, long gcCount, long wallNanos) {
    /** The resources spent from {@code earlier} to this reading. */
    public Reading minus(Reading earlier) {
      return new Reading(
          cpuNanos - earlier.cpuNanos,
          gcMillis - earlier.gcMillis,
          gcCount - earlier.gcCount,
          wallNanos - earlier.wallNanos);
    }
  }

  /** Reads the process CPU time and the collectors' accumulated time now. */
  public static Reading read() {
    long gcMillis = 0;
    long gcCount = 0;
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      gcMillis += Math.max(0, gc.getCollectionTime());
      gcCount += Math.max(0, gc.getCollectionCount());
    }
    var os =
        (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    return new Reading(os.getProcessCpuTime(), gcMillis, gcCount, System.nanoTime());
  }

  /** Starts a new peak: the heap pools' peaks become their current usage. */
  public static void resetHeapPeak() {
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        pool.resetPeakUsage();
      }
    }
  }

  /**
   * Sum of the heap pools' peaks since {@link #resetHeapPeak()}: an upper bound of the peak heap in
   * use (the pools peak at different instants).
   */
  public static long heapPeakBytes() {
    long sum = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        sum += pool.getPeakUsage().getUsed();
      }
    }
    return sum;
  }

  /**
   * Heap in use after full collections, repeated with short pauses (tasks of a finished job release
   * their memory asynchronously) until it shrinks by less than 1 MiB, at most 20 times.
   */
  public static long heapAfterFullGc() throws InterruptedException {
    long used = Long.MAX_VALUE;
    for (int i = 0; i < 20; i++) {
      System.gc();
      long now = heapUsed();
      if (used - now < (1L << 20)) {
        return Math.min(used, now);
      }
      used = now;
      Thread.sleep(100);
    }
    return used;
  }

  private static long heapUsed() {
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }
}
