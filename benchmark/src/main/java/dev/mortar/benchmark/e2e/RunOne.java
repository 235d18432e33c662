package dev.mortar.benchmark.e2e;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * One system's run in its own JVM (started by the {@link Harness}): a warm-up job, then the
 * measured job, each on a fresh embedded MiniCluster writing a fresh table; prints the figures as
 * one JSON line prefixed by {@link #RESULT_PREFIX}.
 *
 * <p>The leak check: heap after a full GC once the measured job ended (allowing its tasks 5 s to
 * release their memory) must be within {@link #LEAK_MARGIN_BYTES} of the heap after a full GC once
 * the warm-up job ended.
 */
public final class RunOne {
  static final String RESULT_PREFIX = "MORTAR-RESULT ";
  static final long LEAK_MARGIN_BYTES = 64L << 20;

  private RunOne() {}

  public static void main(String[] args) {
    int exitCode = 0;
    try {
      Flags flags = RunSpec.flags();
      if (flags.parse(args)) {
        RunFigures figures = run(RunSpec.fromFlags(flags));
        System.out.println(RESULT_PREFIX + Json.LINE.writeValueAsString(figures));
      }
    } catch (Throwable t) {
      t.printStackTrace();
      exitCode = 1;
    }
    System.out.flush();
    // Flink and Paimon may leave non-daemon threads behind: end the JVM either way.
    System.exit(exitCode);
  }

  /** Runs the warm-up job and the measured job of {@code spec} in this JVM. */
  static RunFigures run(RunSpec spec) throws Exception {
    Files.createDirectories(spec.workDir());
    Path root = Files.createTempDirectory(spec.workDir(), "mortar-e2e-" + spec.system().flagName());
    try (LocalFlink flink = LocalFlink.start(spec)) {
      if (spec.warmupRows() > 0) {
        Path warmupTable = root.resolve("warmup");
        try (JobTimeline ignored = JobTimeline.start()) {
          flink.runJob(spec.warmupRows(), warmupTable);
        }
        TableFiles.deleteRecursively(warmupTable);
      }
      long heapBaseline = ProcessMeters.heapAfterFullGc();
      ProcessMeters.resetHeapPeak();

      Path table = root.resolve("table");
      Map<String, Double> cpuByThread;
      JobTimeline timeline;
      try (CpuByThread threads = CpuByThread.start()) {
        timeline = JobTimeline.start();
        flink.runJob(spec.rows(), table);
        timeline.stop();
        cpuByThread = threads.stopAndDivide(spec.rows());
      }

      long peakHeap = ProcessMeters.heapPeakBytes();
      long bytesOnDisk = TableFiles.bytesOnDisk(table);
      Map<String, Long> filesLeft = spec.system().filesLeft(table);
      long poolBytesOut = JobMetrics.poolBytesOut();
      long heapAfter = ProcessMeters.heapAfterFullGc();
      // Tasks of a finished job release their memory asynchronously: give them up to 5 s.
      for (int i = 0; i < 10 && heapAfter - heapBaseline > LEAK_MARGIN_BYTES; i++) {
        Thread.sleep(500);
        heapAfter = ProcessMeters.heapAfterFullGc();
      }
      return figures(
          spec,
          timeline,
          cpuByThread,
          peakHeap,
          bytesOnDisk,
          filesLeft,
          heapBaseline,
          heapAfter,
          poolBytesOut);
    } finally {
      TableFiles.deleteRecursively(root);
    }
  }

  private static RunFigures figures(
      RunSpec spec,
      JobTimeline timeline,
      Map<String, Double> cpuByThread,
      long peakHeap,
      long bytesOnDisk,
      Map<String, Long> filesLeft,
      long heapBaseline,
      long heapAfter,
      long poolBytesOut) {
    if (timeline.emitted() != spec.rows()) {
      throw new IllegalStateException(
          "the source emitted "
              + timeline.emitted()
              + " rows, expected "
              + spec.rows()
              + ": the source-progress metric reporter missed the source operator");
    }
    ProcessMeters.Reading window = timeline.window();
    double seconds = window.wallNanos() / 1e9;
    double steady = timeline.steadyRowsPerSec();
    double cpuSeconds = window.cpuNanos() / 1e9;
    boolean leakFree = poolBytesOut <= 0 && heapAfter - heapBaseline <= LEAK_MARGIN_BYTES;
    return new RunFigures(
        spec.system().flagName(),
        spec.workload().name(),
        spec.variant(),
        spec.parallelism(),
        spec.buckets(),
        spec.objectReuse(),
        spec.shuffled(),
        spec.repeat(),
        spec.rows(),
        seconds,
        timeline.whole().wallNanos() / 1e9,
        timeline.tailSeconds(),
        steady,
        spec.rows() / seconds,
        steady * spec.workload().logicalBytesPerRow() / 1e6,
        cpuSeconds,
        cpuSeconds / (spec.rows() / 1e6),
        cpuSeconds / seconds,
        cpuByThread,
        timeline.whole().gcMillis(),
        timeline.whole().gcCount(),
        peakHeap,
        bytesOnDisk,
        heapBaseline,
        heapAfter,
        LEAK_MARGIN_BYTES,
        poolBytesOut,
        leakFree,
        filesLeft);
  }
}
