package dev.mortar.benchmark.e2e;

import dev.mortar.benchmark.JavaThreads;
import dev.mortar.benchmark.ThreadCpuSampler;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Where a measured job's CPU goes, by thread group, in CPU microseconds per row: the source task
 * (the source and every operator chained to it, Mortar's first step included), the sink's other
 * tasks, Mortar's flush threads, compaction (Mortar's compaction tasks and compactor threads,
 * Paimon's writers' compaction threads), Mortar's other threads (cleaning, archival), the rest of
 * Flink's Java threads, and the JVM's own threads: garbage collection and the JIT compilers ({@link
 * JvmThreadCpu}, on Linux) and the rest (process CPU minus every thread above). Covers the whole
 * measured job, from before its submission to its end.
 */
final class CpuByThread implements AutoCloseable {
  static final String SOURCE_TASK = "source task";
  static final String SINK_TASKS = "sink tasks";
  static final String MORTAR_FLUSH = "mortar flush";
  static final String COMPACTION = "compaction";
  static final String MORTAR_SERVICES = "mortar services";
  static final String OTHER_JAVA = "other Java";
  static final String GC = JvmThreadCpu.GC;
  static final String JIT = JvmThreadCpu.JIT;
  static final String JVM_OTHER = "JVM other";

  /** The groups in report order. */
  static final String[] GROUPS = {
    SOURCE_TASK,
    SINK_TASKS,
    MORTAR_FLUSH,
    COMPACTION,
    MORTAR_SERVICES,
    OTHER_JAVA,
    GC,
    JIT,
    JVM_OTHER
  };

  /**
   * A task thread's name ends with its subtask and attempt, "(1/2)#0". A legacy source function
   * runs in a thread of its own named after the task.
   */
  private static final Pattern TASK_THREAD = Pattern.compile(".*\\(\\d+/\\d+\\)#\\d+$");

  /** Long enough to keep the sampler's own CPU small; a thread that ends loses at most this. */
  private static final long PERIOD_MILLIS = 100;

  private final ThreadCpuSampler threads;
  private final ProcessMeters.Reading start;

  private CpuByThread() {
    this.threads =
        ThreadCpuSampler.start(
            PERIOD_MILLIS, new JavaThreads(CpuByThread::groupOf), new JvmThreadCpu());
    this.start = ProcessMeters.read();
  }

  static CpuByThread start() {
    return new CpuByThread();
  }

  static String groupOf(String threadName) {
    if (threadName.startsWith("Legacy Source Thread") || threadName.startsWith("Source:")) {
      return SOURCE_TASK;
    }
    if (threadName.startsWith("mortar-compact") || threadName.contains("-compaction")) {
      return COMPACTION;
    }
    if (threadName.startsWith("mortar-flush")) {
      return MORTAR_FLUSH;
    }
    if (TASK_THREAD.matcher(threadName).matches()) {
      return SINK_TASKS;
    }
    if (threadName.startsWith("mortar-")) {
      return MORTAR_SERVICES;
    }
    return OTHER_JAVA;
  }

  /** Stops sampling; the CPU µs per row of each group over {@code rows} rows, in report order. */
  Map<String, Double> stopAndDivide(long rows) throws InterruptedException {
    Map<String, Long> nanos = new HashMap<>(threads.stopAndSumByGroup());
    long processNanos = ProcessMeters.read().minus(start).cpuNanos();
    nanos.put(JVM_OTHER, processNanos - nanos.values().stream().mapToLong(Long::longValue).sum());
    Map<String, Double> perRow = new LinkedHashMap<>();
    for (String group : GROUPS) {
      perRow.put(group, nanos.getOrDefault(group, 0L) / 1e3 / rows);
    }
    return perRow;
  }

  @Override
  public void close() throws InterruptedException {
    threads.close();
  }
}
