package dev.mortar.writer.write;

import dev.mortar.buffer.BucketBuffer;
import dev.mortar.logformat.StagingBuffers;
import dev.mortar.writer.table.WriteStat;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import javax.annotation.Nullable;

/**
 * Runs the flushes of one write task on background threads, so the task keeps taking rows while a
 * sealed bucket buffer is encoded and written: without it the task's input (and, through
 * back-pressure, the source) stands still for every flush.
 *
 * <p>Each thread is a <em>lane</em>: the task submits every flush to a lane, and a lane runs its
 * flushes one at a time in submission order. The task puts all flushes of one file group on one
 * lane, so the log file versions of a file group follow the order its rows arrived in, exactly as
 * with flushes on the task thread; flushes on different lanes run side by side.
 *
 * <p>Invariants:
 *
 * <ul>
 *   <li>Flushes are collected in submission order, whichever lane ran them.
 *   <li>Only the task thread touches the page pool. A flush stays in this queue, and its sealed
 *       buffer's pages out of the pool, until the flush is done (finished, failed, or cancelled
 *       before it started) and the task thread collects it ({@link #collectDone}, {@link
 *       #awaitOldest}, {@link #awaitAll}) or closes the queue, releasing the buffer there. A wait
 *       cut short by an interrupt leaves the flush queued, so a cancelled task still releases it at
 *       {@link #close}. A collected flush is handed to the collector given at construction, on the
 *       task thread, in submission order.
 *   <li>A failed flush fails the collect that meets it, naming the buffer, and every collect after
 *       it: nothing of it was written, so no checkpoint may be taken once it failed (its rows are
 *       in no log file, and the checkpoint would move the input past them). The first collect may
 *       run on another thread than the checkpoint (a legacy source's own thread calls into the
 *       chained write operator), so the failure stays until the task ends; the restart from the
 *       last checkpoint replays its rows.
 *   <li>Each thread owns the native staging buffer its direct I/O log files share ({@link
 *       StagingBuffers}) and frees it as it ends, before {@link #close} returns.
 * </ul>
 */
final class FlushQueue implements AutoCloseable {
  /** What a finished flush reports: the log files written and how long the flush took. */
  record Flushed(List<WriteStat> stats, long millis) {}

  private record Pending(BucketBuffer buffer, Future<Flushed> result) {}

  /** How long {@link #close()} waits for running flushes to stop. */
  static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(60);

  private final Duration closeTimeout;
  private final ExecutorService[] lanes;
  private final Thread[] threads;
  private final Consumer<Flushed> collector;
  private final ArrayDeque<Pending> pending = new ArrayDeque<>();
  @Nullable private IOException failed;

  /**
   * A queue of {@code lanes} lanes, whose threads are named {@code threadName} (one lane) or {@code
   * threadName} with the lane's number, and whose {@link #close()} waits at most {@code
   * closeTimeout} for running flushes.
   */
  FlushQueue(String threadName, int lanes, Duration closeTimeout, Consumer<Flushed> collector) {
    if (lanes < 1) {
      throw new IllegalArgumentException("a flush queue needs a lane, got " + lanes);
    }
    this.closeTimeout = closeTimeout;
    this.collector = collector;
    this.lanes = new ExecutorService[lanes];
    this.threads = new Thread[lanes];
    for (int lane = 0; lane < lanes; lane++) {
      int index = lane;
      String name = lanes == 1 ? threadName : threadName + " lane " + (lane + 1);
      this.lanes[lane] =
          Executors.newSingleThreadExecutor(
              runnable -> {
                Thread thread = new Thread(() -> runThenFreeStaging(runnable), name);
                thread.setDaemon(true);
                threads[index] = thread;
                return thread;
              });
    }
  }

  private static void runThenFreeStaging(Runnable flushes) {
    try {
      flushes.run();
    } finally {
      StagingBuffers.releaseThisThread();
    }
  }

  /**
   * Starts writing {@code sealed} with {@code flush} on {@code lane}, after the flushes submitted
   * to that lane before; the buffer is released once collected.
   */
  void submit(int lane, BucketBuffer sealed, Callable<Flushed> flush) {
    pending.addLast(new Pending(sealed, lanes[lane].submit(flush)));
  }

  /** Collects the finished flushes at the head of the queue, without waiting. */
  void collectDone() throws IOException {
    throwIfFailed();
    while (!pending.isEmpty() && pending.peekFirst().result().isDone()) {
      collectOldest();
    }
  }

  /** Waits for the oldest flush and collects it; {@code false} when none is in flight. */
  boolean awaitOldest() throws IOException {
    throwIfFailed();
    if (pending.isEmpty()) {
      return false;
    }
    collectOldest();
    return true;
  }

  /** Waits for every flush in flight and collects them in order. */
  void awaitAll() throws IOException {
    while (awaitOldest()) {
      // each iteration collects one flush
    }
  }

  /**
   * Waits for the oldest flush; once it is done, takes it off the queue, releases its buffer and
   * hands its result to the collector. An interrupted wait leaves the flush queued: its buffer may
   * still be read, and {@link #close} releases it.
   */
  private void collectOldest() throws IOException {
    Pending oldest = pending.peekFirst();
    try {
      collector.accept(oldest.result().get());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException(
          "interrupted while waiting for the flush of bucket buffer "
              + oldest.buffer().ownerName());
    } catch (ExecutionException e) {
      failed =
          new IOException(
              "flush of bucket buffer " + oldest.buffer().ownerName() + " failed", e.getCause());
      throw failed;
    } finally {
      if (oldest.result().isDone()) {
        pending.removeFirst();
        oldest.buffer().release();
      }
    }
  }

  /** Throws again, with the caller's stack, the failure of a flush an earlier collect met. */
  private void throwIfFailed() throws IOException {
    if (failed != null) {
      throw new IOException(failed.getMessage(), failed.getCause());
    }
  }

  /**
   * Stops the threads (interrupting running flushes: the task is closing, its open interval is not
   * committed), waits up to the close timeout for them to stop, and releases the buffer of every
   * flush no thread reads any more. The wait goes on when the closing thread is interrupted (as a
   * cancelled task's thread is), and the interrupt is kept. A flush that has not stopped by then
   * keeps its buffer, stays queued for a later close, and fails this one, naming its buffer.
   */
  @Override
  public void close() {
    for (ExecutorService lane : lanes) {
      // shutdownNow hands back the FutureTasks that never started; cancelled, they count as done.
      for (Runnable neverStarted : lane.shutdownNow()) {
        ((Future<?>) neverStarted).cancel(false);
      }
    }
    boolean interrupted = awaitStop();
    List<String> stillRunning = new ArrayList<>();
    for (Iterator<Pending> it = pending.iterator(); it.hasNext(); ) {
      Pending flush = it.next();
      if (flush.result().isDone()) {
        flush.buffer().release();
        it.remove();
      } else {
        stillRunning.add(flush.buffer().ownerName());
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    if (!stillRunning.isEmpty()) {
      throw new IllegalStateException(
          "a flush did not stop within "
              + closeTimeout.toMillis()
              + " ms of the write task closing; bucket buffer(s) "
              + String.join(", ", stillRunning)
              + " are still being read and were not released");
    }
  }

  /** Waits up to the close timeout for the threads to end; returns whether it was interrupted. */
  private boolean awaitStop() {
    long deadline = System.nanoTime() + closeTimeout.toNanos();
    boolean interrupted = false;
    for (int lane = 0; lane < lanes.length; lane++) {
      while (true) {
        try {
          if (lanes[lane].awaitTermination(deadline - System.nanoTime(), TimeUnit.NANOSECONDS)
              && threads[lane] != null) {
            TimeUnit.NANOSECONDS.timedJoin(threads[lane], deadline - System.nanoTime());
          }
          break;
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
    }
    return interrupted;
  }
}
