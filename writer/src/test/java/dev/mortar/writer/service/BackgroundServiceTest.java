package dev.mortar.writer.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class BackgroundServiceTest {
  @Test
  void aFailedJobFailsTheNextStartAndAwaitIdleNamingWhatFailed() throws Exception {
    try (BackgroundService service = new BackgroundService("test-service")) {
      service.startUnlessRunning(
          "cleaning",
          () -> {
            throw new IOException("disk gone");
          });
      assertThatThrownBy(service::awaitIdle)
          .isInstanceOf(IllegalStateException.class)
          .hasMessage("cleaning failed")
          .hasRootCauseMessage("disk gone");

      service.startUnlessRunning(
          "archiving",
          () -> {
            throw new IOException("disk gone again");
          });
      Thread.sleep(50);
      assertThatThrownBy(() -> service.startUnlessRunning("archiving", () -> {}))
          .hasMessage("archiving failed");
    }
  }

  @Test
  void closeLetsARunningJobFinishAndDoesNotThrowWhatItFailedWith() throws Exception {
    BackgroundService service = new BackgroundService("test-service");
    CountDownLatch started = new CountDownLatch(1);
    AtomicInteger finished = new AtomicInteger();
    service.startUnlessRunning(
        "archiving",
        () -> {
          started.countDown();
          Thread.sleep(100);
          finished.incrementAndGet();
          throw new IOException("injected");
        });
    started.await();
    service.close();
    assertThat(finished).as("the running job finished before close returned").hasValue(1);
  }

  @Test
  void closeWaitsForARunningJobEvenWhenItsThreadIsInterrupted() throws Exception {
    BackgroundService service = new BackgroundService("test-service");
    CountDownLatch started = new CountDownLatch(1);
    AtomicInteger finished = new AtomicInteger();
    service.startUnlessRunning(
        "archiving",
        () -> {
          started.countDown();
          long until = System.nanoTime() + 200_000_000L;
          while (System.nanoTime() < until) {
            Thread.onSpinWait();
          }
          finished.incrementAndGet();
        });
    started.await();
    Thread.currentThread().interrupt();
    service.close();
    assertThat(Thread.interrupted()).as("the caller's interrupt is kept").isTrue();
    assertThat(finished).as("the running job finished before close returned").hasValue(1);
  }

  @Test
  void aJobStartedWhileOneRunsIsSkipped() throws Exception {
    try (BackgroundService service = new BackgroundService("test-service")) {
      CountDownLatch release = new CountDownLatch(1);
      assertThat(service.startUnlessRunning("first", release::await)).isTrue();
      assertThat(service.startUnlessRunning("second", () -> {})).isFalse();
      release.countDown();
      service.awaitIdle();
      assertThat(service.startUnlessRunning("third", () -> {})).isTrue();
    }
  }
}
