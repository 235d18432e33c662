package dev.mortar.writer.archive;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.annotation.Nullable;
import org.apache.flink.util.concurrent.ExecutorThreadFactory;

/**
 * Runs the {@link TimelineArchiver} on a thread of its own after commits, so archival never holds
 * up a commit or a checkpoint. At most one run at a time: {@link #afterCommit} starts one unless
 * one is still running, and a run that failed fails the next {@link #afterCommit}.
 */
public final class ArchivalService implements AutoCloseable {
  private static final long CLOSE_TIMEOUT_SECONDS = 60;

  private final TimelineArchiver archiver;
  private final ExecutorService executor;
  @Nullable private Future<Integer> running;

  public ArchivalService(TimelineArchiver archiver) {
    this.archiver = archiver;
    this.executor = Executors.newSingleThreadExecutor(new ExecutorThreadFactory("mortar-archiver"));
  }

  /** Starts a run unless one is running; throws if the previous run failed. */
  public void afterCommit() {
    if (running != null) {
      if (!running.isDone()) {
        return;
      }
      awaitRunning();
    }
    running = executor.submit(archiver::run);
  }

  private void awaitRunning() {
    try {
      running.get();
    } catch (ExecutionException e) {
      throw new IllegalStateException("archiving the timeline failed", e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while archiving the timeline", e);
    } finally {
      running = null;
    }
  }

  /** Lets a running run finish, then stops; throws if it failed. */
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
