package dev.mortar.writer.clean;

import dev.mortar.writer.compaction.AfterCompaction;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.annotation.Nullable;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.util.concurrent.ExecutorThreadFactory;

/**
 * Runs {@link Cleaner} on a thread of its own ({@code mortar-cleaner}) beside the compaction
 * committer, so a clean (listing the table, deleting files) never holds up a commit or a
 * checkpoint. At most one clean runs at a time: a compaction committed while one runs starts none
 * (the next compaction's clean catches up). A failed clean fails the next {@link
 * #compactionCommitted} and {@link #close}. Counts the files and bytes it deleted in the metrics
 * {@code mortar.cleanedFiles} and {@code mortar.cleanedBytes}.
 */
final class CleanService implements AfterCompaction.Service {
  private static final long CLOSE_TIMEOUT_SECONDS = 60;

  private final Cleaner cleaner;
  private final ExecutorService executor;
  private final Counter cleanedFiles;
  private final Counter cleanedBytes;
  @Nullable private Future<?> running;

  CleanService(Cleaner cleaner, MetricGroup operatorGroup) {
    this.cleaner = cleaner;
    this.executor = Executors.newSingleThreadExecutor(new ExecutorThreadFactory("mortar-cleaner"));
    MetricGroup mortar = operatorGroup.addGroup("mortar");
    this.cleanedFiles = mortar.counter("cleanedFiles");
    this.cleanedBytes = mortar.counter("cleanedBytes");
  }

  @Override
  public void compactionCommitted(String instant) {
    start();
  }

  /** Starts a clean unless one is running; throws if the last one failed. */
  void start() {
    if (running != null) {
      if (!running.isDone()) {
        return;
      }
      awaitRunning();
    }
    running =
        executor.submit(
            () -> {
              Cleaner.Deleted deleted = cleaner.clean();
              cleanedFiles.inc(deleted.files());
              cleanedBytes.inc(deleted.bytes());
            });
  }

  private void awaitRunning() {
    try {
      running.get();
    } catch (ExecutionException e) {
      throw new IllegalStateException(
          "cleaning failed: " + e.getCause().getMessage(), e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for a clean", e);
    } finally {
      running = null;
    }
  }

  /**
   * Lets a running clean finish (a clean stopped half-way is finished by the next job), then stops;
   * throws if that clean failed.
   */
  @Override
  public void close() throws InterruptedException {
    executor.shutdown();
    if (!executor.awaitTermination(CLOSE_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
      executor.shutdownNow();
      return;
    }
    if (running != null) {
      awaitRunning();
    }
  }
}
