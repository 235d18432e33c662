package dev.mortar.writer.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.mortar.buffer.BucketBuffer;
import dev.mortar.buffer.Deduplication;
import dev.mortar.buffer.PagePool;
import dev.mortar.logformat.LogFileWriter;
import dev.mortar.logformat.LogWriterOptions;
import dev.mortar.logformat.StagingBuffers;
import dev.mortar.serde.Operation;
import dev.mortar.writer.table.WriteStat;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.LockSupport;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.data.writer.BinaryRowWriter;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.LocalFileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FlushQueueTest {
  private final PagePool pool = PagePool.strictOffHeap(4096, 64 * 4096);

  @Test
  void flushesRunInSubmissionOrderAndReleaseTheirPagesWhenCollected() throws Exception {
    List<String> ran = Collections.synchronizedList(new ArrayList<>());
    List<FlushQueue.Flushed> collected = new ArrayList<>();
    try (FlushQueue queue =
        new FlushQueue("test-flush", 1, FlushQueue.CLOSE_TIMEOUT, collected::add)) {
      for (int i = 0; i < 20; i++) {
        BucketBuffer sealed = filled("bucket-" + i);
        String name = sealed.ownerName();
        queue.submit(0, sealed, () -> flushed(ran, name, sealed));
      }
      assertThat(pool.pagesInUse()).isPositive();
      queue.awaitAll();
      assertThat(queue.awaitOldest()).as("nothing left in flight").isFalse();
    }
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      expected.add("bucket-" + i);
    }
    assertThat(ran).containsExactlyElementsOf(expected);
    assertThat(collected)
        .extracting(f -> f.stats().get(0).fileId())
        .containsExactlyElementsOf(expected);
    assertThat(pool.pagesInUse()).isZero();
    pool.close();
  }

  @Test
  void lanesRunSideBySideEachInItsOrderAndAreCollectedInSubmissionOrder() throws Exception {
    List<String> ran = Collections.synchronizedList(new ArrayList<>());
    List<FlushQueue.Flushed> collected = new ArrayList<>();
    CountDownLatch laneTwoDone = new CountDownLatch(1);
    try (FlushQueue queue =
        new FlushQueue("test-flush", 2, FlushQueue.CLOSE_TIMEOUT, collected::add)) {
      BucketBuffer first = filled("lane-1-first");
      queue.submit(
          0,
          first,
          () -> {
            // Runs only once lane 2 has written its file: the lanes run side by side.
            awaitUninterruptibly(laneTwoDone);
            return flushed(ran, "lane-1-first", first);
          });
      BucketBuffer second = filled("lane-1-second");
      queue.submit(0, second, () -> flushed(ran, "lane-1-second", second));
      BucketBuffer other = filled("lane-2");
      queue.submit(
          1,
          other,
          () -> {
            FlushQueue.Flushed flushed = flushed(ran, "lane-2", other);
            laneTwoDone.countDown();
            return flushed;
          });
      queue.awaitAll();
    }
    assertThat(ran).containsExactly("lane-2", "lane-1-first", "lane-1-second");
    assertThat(collected)
        .extracting(f -> f.stats().get(0).fileId())
        .containsExactly("lane-1-first", "lane-1-second", "lane-2");
    assertThat(pool.pagesInUse()).isZero();
    pool.close();
  }

  @Test
  void aFailedFlushFailsTheCollectNamingTheBufferAndStillReleasesIt() throws Exception {
    try (FlushQueue queue =
        new FlushQueue("test-flush", 1, FlushQueue.CLOSE_TIMEOUT, flushed -> {})) {
      queue.submit(
          0,
          filled("p=1#3"),
          () -> {
            throw new IOException("disk full");
          });
      assertThatThrownBy(() -> queue.awaitOldest())
          .isInstanceOf(IOException.class)
          .hasMessageContaining("p=1#3")
          .hasRootCauseMessage("disk full");
    }
    assertThat(pool.pagesInUse()).isZero();
    pool.close();
  }

  @Test
  void aFailedFlushFailsEveryLaterCollectSoNoCheckpointForgetsIt() throws Exception {
    try (FlushQueue queue =
        new FlushQueue("test-flush", 1, FlushQueue.CLOSE_TIMEOUT, flushed -> {})) {
      queue.submit(
          0,
          filled("p=2#0"),
          () -> {
            throw new IOException("injected");
          });
      assertThatThrownBy(() -> queue.awaitOldest()).hasMessageContaining("p=2#0");
      queue.submit(0, filled("p=2#1"), () -> null);
      for (ThrowingCollect collect :
          List.<ThrowingCollect>of(queue::awaitAll, queue::awaitOldest, queue::collectDone)) {
        assertThatThrownBy(collect::run)
            .isInstanceOf(IOException.class)
            .hasMessageContaining("p=2#0")
            .hasRootCauseMessage("injected");
      }
    }
    assertThat(pool.pagesInUse()).isZero();
    pool.close();
  }

  /** A collect of the queue. */
  private interface ThrowingCollect {
    void run() throws IOException;
  }

  @Test
  void closeStopsARunningFlushAndReleasesEverySealedBuffer() throws Exception {
    CountDownLatch started = new CountDownLatch(1);
    FlushQueue queue = new FlushQueue("test-flush", 1, FlushQueue.CLOSE_TIMEOUT, flushed -> {});
    queue.submit(
        0,
        filled("running"),
        () -> {
          started.countDown();
          Thread.sleep(60_000);
          return null;
        });
    queue.submit(0, filled("waiting"), () -> null);
    started.await();
    queue.close();
    assertThat(pool.pagesInUse()).isZero();
    pool.close();
  }

  @Test
  void aTaskCancelledWhileAwaitingAFlushStillReleasesItsBufferAtClose() throws Exception {
    CountDownLatch started = new CountDownLatch(1);
    FlushQueue queue = new FlushQueue("test-flush", 1, FlushQueue.CLOSE_TIMEOUT, flushed -> {});
    queue.submit(0, filled("running"), () -> untilInterrupted(started));
    started.await();

    assertThatThrownBy(() -> cancelledWhileAwaitingOldest(queue))
        .isInstanceOf(InterruptedIOException.class)
        .hasMessageContaining("running");
    assertThat(Thread.interrupted()).as("the cancel is passed on to the task").isTrue();
    queue.close();

    assertThat(pool.pagesInUse()).isZero();
    pool.close();
  }

  @Test
  void closeOnACancelledTaskThreadWaitsForTheFlushAndReleasesEveryBuffer() throws Exception {
    CountDownLatch started = new CountDownLatch(1);
    FlushQueue queue = new FlushQueue("test-flush", 1, FlushQueue.CLOSE_TIMEOUT, flushed -> {});
    queue.submit(0, filled("running"), () -> stopsSlowlyOnInterrupt(started));
    queue.submit(0, filled("waiting"), () -> null);
    started.await();
    try {
      assertThatThrownBy(() -> cancelledWhileAwaitingOldest(queue))
          .isInstanceOf(InterruptedIOException.class);
      queue.close();
      assertThat(Thread.currentThread().isInterrupted())
          .as("close keeps the task's cancel")
          .isTrue();
    } finally {
      Thread.interrupted();
    }

    assertThat(pool.pagesInUse()).isZero();
    pool.close();
  }

  @Test
  void closeNamesAFlushThatDoesNotStopAndReleasesItOnceItHas() throws Exception {
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch unblock = new CountDownLatch(1);
    FlushQueue queue = new FlushQueue("test-flush", 1, Duration.ofMillis(100), flushed -> {});
    queue.submit(
        0,
        filled("failed"),
        () -> {
          throw new IOException("disk full");
        });
    queue.submit(
        0,
        filled("stuck"),
        () -> {
          started.countDown();
          awaitUninterruptibly(unblock);
          return null;
        });
    assertThatThrownBy(queue::awaitOldest).hasMessageContaining("failed");
    started.await();

    assertThatThrownBy(queue::close)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("100 ms")
        .hasMessageContaining("stuck")
        .hasMessageNotContaining("failed");
    assertThat(pool.pagesInUse()).as("the stuck flush still reads its pages").isPositive();

    unblock.countDown();
    queue.close();
    assertThat(pool.pagesInUse()).isZero();
    pool.close();
  }

  @Test
  void theFlushThreadFreesItsDirectIoStagingBufferBeforeCloseReturns(@TempDir Path dir)
      throws Exception {
    long before = StagingBuffers.nativeBytes();
    LocalFileSystem fs = new LocalFileSystem();
    fs.initialize(URI.create("file:///"), new Configuration());
    BinaryRowData row = row();
    FlushQueue queue = new FlushQueue("test-flush", 1, FlushQueue.CLOSE_TIMEOUT, flushed -> {});
    queue.submit(
        0,
        filled("direct"),
        () -> {
          try (LogFileWriter writer =
              new LogFileWriter(
                  fs,
                  new org.apache.hadoop.fs.Path(dir.toUri()),
                  "",
                  "direct",
                  "20261126182235000",
                  "0-0-0",
                  RowType.of(new VarCharType(VarCharType.MAX_LENGTH)),
                  LogWriterOptions.defaults())) {
            writer.write(BinaryStringData.fromString("k"), row);
            writer.finish();
          }
          return null;
        });
    queue.awaitAll();
    assumeTrue(StagingBuffers.nativeBytes() > before, "no direct I/O on " + dir);

    queue.close();
    assertThat(StagingBuffers.nativeBytes()).isEqualTo(before);
    pool.close();
  }

  /** What a task cancelled by Flink sees: its thread interrupted while it waits for a flush. */
  private static void cancelledWhileAwaitingOldest(FlushQueue queue) throws IOException {
    Thread.currentThread().interrupt();
    queue.awaitOldest();
  }

  /** A flush still running when the task is cancelled: it stops when its thread is interrupted. */
  private static FlushQueue.Flushed untilInterrupted(CountDownLatch started)
      throws InterruptedException {
    started.countDown();
    Thread.sleep(60_000);
    throw new AssertionError("the flush was not interrupted");
  }

  /** A running flush that takes a while to stop once interrupted, as one closing its file does. */
  private static FlushQueue.Flushed stopsSlowlyOnInterrupt(CountDownLatch started) {
    try {
      return untilInterrupted(started);
    } catch (InterruptedException e) {
      long stopped = System.nanoTime() + Duration.ofMillis(300).toNanos();
      while (System.nanoTime() < stopped) {
        LockSupport.parkNanos(stopped - System.nanoTime());
      }
      return null;
    }
  }

  private static void awaitUninterruptibly(CountDownLatch latch) {
    boolean interrupted = false;
    while (latch.getCount() > 0) {
      try {
        latch.await();
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  private FlushQueue.Flushed flushed(List<String> ran, String name, BucketBuffer sealed) {
    assertThat(sealed.cursor().next()).isTrue();
    ran.add(name);
    return new FlushQueue.Flushed(
        List.of(new WriteStat("", name, name + ".log", 1, 1, 0, 0, 1, 1, 0)), 0);
  }

  private BucketBuffer filled(String owner) {
    BucketBuffer buffer = pool.newBuffer(owner, Deduplication.ON_APPEND);
    BinaryRowData row = row();
    for (int i = 0; i < 30; i++) {
      assertThat(buffer.append(BinaryStringData.fromString(owner + i), i, Operation.UPDATE, row))
          .isTrue();
    }
    return buffer;
  }

  private static BinaryRowData row() {
    BinaryRowData row = new BinaryRowData(1);
    BinaryRowWriter writer = new BinaryRowWriter(row, 256);
    writer.writeString(0, BinaryStringData.fromString("x".repeat(200)));
    writer.complete();
    return row;
  }
}
