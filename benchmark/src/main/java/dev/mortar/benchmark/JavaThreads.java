package dev.mortar.benchmark;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.function.Function;

/**
 * This JVM's Java threads as its thread bean sees them, grouped by name. The JVM's own threads
 * (garbage collector, JIT compiler) are not among them.
 */
public final class JavaThreads implements ThreadCpuSampler.Threads {
  private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
  private final Function<String, String> groupOfName;

  /**
   * @param groupOfName the group of a thread by its name, or {@code null} for threads not counted
   */
  public JavaThreads(Function<String, String> groupOfName) {
    this.groupOfName = groupOfName;
  }

  @Override
  public long[] ids() {
    return threads.getAllThreadIds();
  }

  @Override
  public String group(long id) {
    ThreadInfo info = threads.getThreadInfo(id, 0);
    return info == null ? null : groupOfName.apply(info.getThreadName());
  }

  @Override
  public long cpuNanos(long id) {
    return threads.getThreadCpuTime(id);
  }
}
