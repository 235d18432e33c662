package dev.mortar.writer.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mortar.buffer.BufferOptions;
import dev.mortar.buffer.StrictPoolLedger;
import dev.mortar.testing.Seeds;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A job cancelled while its write tasks have flushes in flight gives back every buffer page and
 * every native byte: its off-heap pools are strict (the module's tests run under {@value
 * BufferOptions#STRICT_PROPERTY}), so {@link StrictPoolLedger} sees what the tasks still hold. Log
 * files are slow to create and the buffers small, so each write task has sealed buffers queued
 * behind a running flush and waits for the oldest when it is cancelled.
 */
class CancelITCase {
  private static final Logger LOG = LoggerFactory.getLogger(CancelITCase.class);
  private static final Duration LOG_FILE_DELAY = Duration.ofMillis(100);
  private static final Duration TIMEOUT = Duration.ofSeconds(60);

  @RegisterExtension static final MiniClusterExtension MINI_CLUSTER = MiniClusters.withSlots(4);

  @TempDir Path dir;

  @BeforeAll
  static void strictPools() {
    assertThat(Boolean.getBoolean(BufferOptions.STRICT_PROPERTY))
        .as("system property %s (set in writer/pom.xml)", BufferOptions.STRICT_PROPERTY)
        .isTrue();
  }

  @AfterEach
  void fastLogFiles() {
    FaultyLocalFileSystem.slowLogFiles(0);
  }

  @ParameterizedTest(name = "parallelism {0}")
  @ValueSource(ints = {1, 2})
  void aCancelledJobGivesBackEveryPageAndNativeByte(int parallelism) throws Exception {
    long seed = Seeds.seed("CancelITCase");
    LOG.info("seed {}", seed);
    Path table = dir.resolve("t");
    SinkJob job =
        SinkJob.at(table.toUri().toString())
            .parallelism(parallelism)
            .partitioned(true)
            .smallBuffers(true)
            .offHeap(true)
            .perCheckpoint(5_000)
            .build();
    long pagesBefore = StrictPoolLedger.pagesHeld();
    long bytesBefore = StrictPoolLedger.offHeapBytes();
    FaultyLocalFileSystem.slowLogFiles(LOG_FILE_DELAY.toMillis());

    StreamExecutionEnvironment env = job.environment();
    job.addDataStream(env, Changelog.random(seed, 50_000, 5_000, 50, 20));
    JobClient client = env.executeAsync("cancel with flushes in flight");
    awaitFirstLogFile(client, table);
    Thread.sleep(3 * LOG_FILE_DELAY.toMillis());
    assertThat(StrictPoolLedger.pagesHeld() - pagesBefore)
        .as("pages the write tasks hold before the cancel")
        .isPositive();
    assertThat(Restores.cancel(client, TIMEOUT)).isEqualTo(JobStatus.CANCELED);
    awaitLedgerAt(pagesBefore, bytesBefore);
    assertThat(StrictPoolLedger.pagesHeld()).as("pages still held").isEqualTo(pagesBefore);
    assertThat(StrictPoolLedger.offHeapBytes())
        .as("native bytes of buffer pages not freed")
        .isEqualTo(bytesBefore);
  }

  /** Waits until a write task has written a log file, so the next flushes are under way. */
  private static void awaitFirstLogFile(JobClient client, Path table) throws Exception {
    long deadline = System.nanoTime() + TIMEOUT.toNanos();
    while (!hasLogFile(table)) {
      assertThat(System.nanoTime()).as("a log file within %s", TIMEOUT).isLessThan(deadline);
      assertThat(client.getJobStatus().get().isGloballyTerminalState())
          .as("job ended before its first log file")
          .isFalse();
      Thread.sleep(20);
    }
  }

  private static boolean hasLogFile(Path table) throws IOException {
    if (!Files.isDirectory(table)) {
      return false;
    }
    try (Stream<Path> files = Files.walk(table)) {
      return files.anyMatch(file -> file.getFileName().toString().contains(".log."));
    }
  }

  /**
   * Waits a little for the ledger to come back: a task reports itself cancelled once it has closed
   * its operators, so it should already be there.
   */
  private static void awaitLedgerAt(long pages, long bytes) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
    while ((StrictPoolLedger.pagesHeld() != pages || StrictPoolLedger.offHeapBytes() != bytes)
        && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
  }
}
