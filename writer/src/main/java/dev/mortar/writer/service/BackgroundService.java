package dev.mortar.writer.service;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.annotation.Nullable;
import org.apache.flink.util.concurrent.ExecutorThreadFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One table service's thread beside an operator (planning compactions, cleaning): runs at most one
 * job at a time, so the operator's thread never waits for a listing or a delete. A job started
 * while one runs is skipped (the next start catches up); a failed job fails the next {@link
 * #startUnlessRunning} or {@link #awaitIdle}, naming what failed. An operator that ends normally
 * calls {@link #awaitIdle} in its {@code finish}; {@link #close}, which also runs when a task fails
 * or is cancelled, only logs a failed job: an exception there would hide the task's own failure,
 * and Flink 2 takes one thrown while it handles a task's failure as fatal to the TaskManager.
 */
public final class BackgroundService implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(BackgroundService.class);
  private static final long CLOSE_TIMEOUT_SECONDS = 60;

  private final ExecutorService executor;
  @Nullable private Future<?> running;
  @Nullable private String runningWhat;

  /**
   * @param threadName the thread's name, e.g. {@code mortar-cleaner}
   */
  public BackgroundService(String threadName) {
    this.executor = Executors.newSingleThreadExecutor(new ExecutorThreadFactory(threadName));
  }

  /** A job of the service; what it throws fails the service's next call. */
  @FunctionalInterface
  public interface Job {
    void run() throws Exception;
  }

  /** Whether a job is running now. */
  public boolean isBusy() {
    return running != null && !running.isDone();
  }

  /**
   * Starts {@code job} unless a job is still running; throws if the last job failed.
   *
   * @param what the job in words, for the error should it fail
   * @return whether the job was started
   */
  public boolean startUnlessRunning(String what, Job job) {
    if (running != null) {
      if (!running.isDone()) {
        return false;
      }
      awaitIdle();
    }
    runningWhat = what;
    running =
        executor.submit(
            () -> {
              job.run();
              return null;
            });
    return true;
  }

  /** Waits until a running job is done; throws if it failed. */
  public void awaitIdle() {
    if (running == null) {
      return;
    }
    try {
      running.get();
    } catch (ExecutionException e) {
      throw new IllegalStateException(runningWhat + " failed", e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for " + runningWhat, e);
    } finally {
      running = null;
    }
  }

  /**
   * Lets a running job finish, then stops; logs it if it failed (the service's next run, in this
   * job or the next, resumes from what is on disk). It waits whatever interrupts the calling thread
   * (a cancelled task's thread is interrupted while it closes), up to a timeout: a job still
   * running after its task closed could race the service of the job that replaces it (two archivers
   * archiving the same instants). The interrupt is kept for the caller.
   */
  @Override
  public void close() {
    executor.shutdown();
    boolean interrupted = false;
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(CLOSE_TIMEOUT_SECONDS);
    try {
      while (!executor.isTerminated()) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          LOG.warn("{} still running after {} s; stopping it", runningWhat, CLOSE_TIMEOUT_SECONDS);
          executor.shutdownNow();
          return;
        }
        try {
          executor.awaitTermination(left, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
      awaitIdle();
    } catch (IllegalStateException failed) {
      LOG.warn("{} while closing; its next run resumes it", failed.getMessage(), failed.getCause());
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
