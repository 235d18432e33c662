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
    AtomicInteger finished = startSlowJob(service, true);
    service.close();
    assertThat(finished).as("the running job finished before close returned").hasValue(1);
  }

  @Test
  void closeWaitsForARunningJobEvenWhenItsThreadIsInterrupted() throws Exception {
    BackgroundService service = new BackgroundService("test-service");
    AtomicInteger finished = startSlowJob(service, false);
    Thread.currentThread().interrupt();
    service.close();
    assertThat(Thread.interrupted()).as("the caller's interrupt is kept").isTrue();
    assertThat(finished).as("the running job finished before close returned").hasValue(1);
  }

  /**
   * Starts a job that runs 150 ms, counts itself finished and then, if {@code fails}, throws;
   * returns once it runs, with its count.
   */
  private static AtomicInteger startSlowJob(BackgroundService service, boolean fails)
      throws InterruptedException {
    CountDownLatch started = new CountDownLatch(1);
    AtomicInteger finished = new AtomicInteger();
    service.startUnlessRunning(
        "archiving",
        () -> {
          started.countDown();
          Thread.sleep(150);
          finished.incrementAndGet();
          if (fails) {
            throw new IOException("injected");
          }
        });
    started.await();
    return finished;
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
