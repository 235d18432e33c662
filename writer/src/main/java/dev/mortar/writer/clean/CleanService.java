package dev.mortar.writer.clean;

import dev.mortar.writer.compaction.AfterCompaction;
import dev.mortar.writer.service.BackgroundService;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;

/**
 * Runs {@link Cleaner} on a thread of its own ({@code mortar-cleaner}) beside the compaction
 * committer, so a clean (listing the table, deleting files) never holds up a commit or a
 * checkpoint. At most one clean runs at a time: a compaction committed while one runs starts none
 * (the next compaction's clean catches up, or {@link #awaitIdle} when the input ends). A failed
 * clean fails the next {@link #compactionCommitted} and {@link #awaitIdle}. Counts the files and
 * bytes it deleted in the metrics {@code mortar.cleanedFiles} and {@code mortar.cleanedBytes}.
 */
final class CleanService implements AfterCompaction.Service {
  private final Cleaner cleaner;
  private final BackgroundService service = new BackgroundService("mortar-cleaner");
  private final Counter cleanedFiles;
  private final Counter cleanedBytes;

  /** Whether a compaction committed while a clean ran, so no clean has seen it yet. */
  private boolean behind;

  CleanService(Cleaner cleaner, MetricGroup operatorGroup) {
    this.cleaner = cleaner;
    MetricGroup mortar = operatorGroup.addGroup("mortar");
    this.cleanedFiles = mortar.counter("cleanedFiles");
    this.cleanedBytes = mortar.counter("cleanedBytes");
  }

  @Override
  public void compactionCommitted(String instant) {
    behind = !start();
  }

  /** Starts a clean unless one is running; throws if the last one failed. */
  boolean start() {
    return service.startUnlessRunning(
        "cleaning",
        () -> {
          Cleaner.Deleted deleted = cleaner.clean();
          cleanedFiles.inc(deleted.files());
          cleanedBytes.inc(deleted.bytes());
        });
  }

  /**
   * Waits for the running clean and, if a compaction committed while it ran, runs one more, so the
   * table is clean for every compaction committed so far.
   */
  @Override
  public void awaitIdle() {
    service.awaitIdle();
    if (behind) {
      behind = false;
      start();
      service.awaitIdle();
    }
  }

  /**
   * Lets a running clean finish (a clean stopped half-way is finished by the next job), then stops
   * (a failed one is logged).
   */
  @Override
  public void close() throws InterruptedException {
    service.close();
  }
}
