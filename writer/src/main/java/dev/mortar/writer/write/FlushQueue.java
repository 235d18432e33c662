package dev.mortar.writer.write;

import dev.mortar.buffer.BucketBuffer;
import dev.mortar.writer.table.WriteStat;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Runs the flushes of one write task on one background thread, so the task keeps taking rows while
 * a sealed bucket buffer is encoded and written: without it the task's input (and, through
 * back-pressure, the source) stands still for every flush.
 *
 * <p>Invariants:
 *
 * <ul>
 *   <li>Flushes run one at a time in submission order, so the log file versions of a file group
 *       follow the order its rows arrived in, exactly as with flushes on the task thread.
 *   <li>Only the task thread touches the page pool. A sealed buffer's pages stay out of the pool
 *       until the task thread collects the finished flush ({@link #collectDone}, {@link
 *       #awaitOldest}, {@link #awaitAll}) and releases the buffer there; the collected flush is
 *       handed to the collector given at construction, on that same thread, in submission order.
 *   <li>A failed flush fails the task at the next collect, naming the buffer; nothing of it was
 *       committed, so the restart from the last checkpoint replays its rows.
 * </ul>
 */
final class FlushQueue implements AutoCloseable {
  /** What a finished flush reports: the log files written and how long the flush took. */
  record Flushed(List<WriteStat> stats, long millis) {}

  private record Pending(BucketBuffer buffer, Future<Flushed> result) {}

  private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(60);

  private final Duration closeTimeout;
  private final ExecutorService executor;
  private final Consumer<Flushed> collector;
  private final ArrayDeque<Pending> pending = new ArrayDeque<>();

  FlushQueue(String threadName, Consumer<Flushed> collector) {
    this(threadName, CLOSE_TIMEOUT, collector);
  }

  /** A queue whose {@link #close()} waits at most {@code closeTimeout} for a running flush. */
  FlushQueue(String threadName, Duration closeTimeout, Consumer<Flushed> collector) {
    this.closeTimeout = closeTimeout;
    this.collector = collector;
    this.executor =
        Executors.newSingleThreadExecutor(
            runnable -> {
              Thread thread = new Thread(runnable, threadName);
              thread.setDaemon(true);
              return thread;
            });
  }

  /** Starts writing {@code sealed} with {@code flush}; the buffer is released once collected. */
  void submit(BucketBuffer sealed, Callable<Flushed> flush) {
    pending.addLast(new Pending(sealed, executor.submit(flush)));
  }

  /** Collects the finished flushes at the head of the queue, without waiting. */
  void collectDone() throws IOException {
    while (!pending.isEmpty() && pending.peekFirst().result().isDone()) {
      collector.accept(collect(pending.removeFirst()));
    }
  }

  /** Waits for the oldest flush and collects it; {@code false} when none is in flight. */
  boolean awaitOldest() throws IOException {
    if (pending.isEmpty()) {
      return false;
    }
    collector.accept(collect(pending.removeFirst()));
    return true;
  }

  /** Waits for every flush in flight and collects them in order. */
  void awaitAll() throws IOException {
    while (awaitOldest()) {
      // each iteration collects one flush
    }
  }

  private static Flushed collect(Pending flush) throws IOException {
    try {
      return flush.result().get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException(
          "interrupted while waiting for the flush of bucket buffer " + flush.buffer().ownerName());
    } catch (ExecutionException e) {
      throw new IOException(
          "flush of bucket buffer " + flush.buffer().ownerName() + " failed", e.getCause());
    } finally {
      if (flush.result().isDone()) {
        flush.buffer().release();
      }
    }
  }

  /**
   * Stops the thread (interrupting a running flush: the task is closing, its open interval is not
   * committed) and releases every sealed buffer once nothing reads it any more.
   */
  @Override
  public void close() throws InterruptedException {
    executor.shutdownNow();
    if (!executor.awaitTermination(closeTimeout.toMillis(), TimeUnit.MILLISECONDS)) {
      throw new IllegalStateException(
          "a flush did not stop within "
              + closeTimeout.toMillis()
              + " ms of the write task closing; its bucket buffer "
              + pending.peekFirst().buffer().ownerName()
              + " is still being read and was not released");
    }
    for (Pending flush : pending) {
      flush.buffer().release();
    }
    pending.clear();
  }
}
