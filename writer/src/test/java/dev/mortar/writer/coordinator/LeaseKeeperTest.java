package dev.mortar.writer.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mortar.writer.table.LeaseHolder;
import dev.mortar.writer.table.WriterLease;
import dev.mortar.writer.table.WriterLeaseException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.flink.runtime.execution.SuppressRestartsException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A starting job's hold on the lease while another job holds it: one that has just finished
 * releases it a moment later, and the starting job takes it; one that goes on holding it fails the
 * starting job without restarts. A job restored from the holder's checkpoint waits the same moment
 * for a release, then takes the lease over.
 */
class LeaseKeeperTest {
  private static final Duration TIMEOUT = Duration.ofMinutes(1);
  private static final LeaseHolder FINISHING =
      new LeaseHolder("writer-1", "job-1", "host-a", System.currentTimeMillis());

  @TempDir Path dir;
  private FileSystem fs;
  private org.apache.hadoop.fs.Path table;
  private final List<Throwable> failures = new CopyOnWriteArrayList<>();
  private final ScheduledExecutorService releaser = Executors.newSingleThreadScheduledExecutor();

  @BeforeEach
  void open() throws Exception {
    fs = FileSystem.newInstance(dir.toUri(), new Configuration());
    table = new org.apache.hadoop.fs.Path(dir.toUri());
  }

  /** Releases the lease, so the clean-up does not wait for a holder that no longer beats. */
  @AfterEach
  void close() throws Exception {
    releaser.shutdownNow();
    WriterLease.of(fs, table, TIMEOUT).releaseAnyHolder(new LeaseHolder("test", "test", "host", 0));
    fs.close();
  }

  /** The lease, held by {@link #FINISHING}, which releases it 500 ms later; its generation. */
  private long heldByAFinishingJob() throws Exception {
    WriterLease lease = WriterLease.of(fs, table, TIMEOUT);
    long generation = lease.acquire(FINISHING);
    releaser.schedule(
        () -> {
          lease.release(generation, FINISHING);
          return null;
        },
        500,
        TimeUnit.MILLISECONDS);
    return generation;
  }

  @Test
  void aJobStartingAsThePreviousOneFinishesTakesTheLeaseOnceItIsReleased() throws Exception {
    heldByAFinishingJob();

    try (LeaseKeeper starting = new LeaseKeeper("job-2", "sink", failures::add)) {
      starting.acquire(fs, table, TIMEOUT);
      starting.checkHeld();
    }

    assertThat(failures).isEmpty();
  }

  @Test
  void aJobRestoredFromTheHoldersCheckpointWaitsForTheCancelledHolderToRelease() throws Exception {
    long generation = heldByAFinishingJob();

    try (LeaseKeeper restored = new LeaseKeeper("job-2", "sink", failures::add)) {
      restored.restoreWriter(FINISHING.writer().getBytes(StandardCharsets.UTF_8));
      restored.acquire(fs, table, TIMEOUT);
      restored.checkHeld();
      WriterLease.State taken = WriterLease.of(fs, table, TIMEOUT).read().orElseThrow();
      assertThat(taken.holder().job()).isEqualTo("job-2");
      assertThat(taken.generation())
          .as("taken after the holder's release (generation %s), not over it", generation + 1)
          .isEqualTo(generation + 2);
    }

    assertThat(failures).isEmpty();
  }

  @Test
  void aJobRestoredFromTheHoldersCheckpointTakesItOverIfTheHolderGoesOnHoldingIt()
      throws Exception {
    WriterLease lease = WriterLease.of(fs, table, TIMEOUT);
    long generation = lease.acquire(FINISHING);

    try (LeaseKeeper restored = new LeaseKeeper("job-2", "sink", failures::add)) {
      restored.restoreWriter(FINISHING.writer().getBytes(StandardCharsets.UTF_8));
      long started = System.nanoTime();
      restored.acquire(fs, table, TIMEOUT);
      assertThat(Duration.ofNanos(System.nanoTime() - started))
          .as("waits for a release first")
          .isGreaterThanOrEqualTo(Duration.ofSeconds(3));
      restored.checkHeld();
      WriterLease.State taken = lease.read().orElseThrow();
      assertThat(taken.holder().job()).isEqualTo("job-2");
      assertThat(taken.generation()).isEqualTo(generation + 1);
    }

    assertThat(failures).isEmpty();
  }

  @Test
  void aJobStartingWhileAnotherGoesOnWritingFailsWithoutRestarts() throws Exception {
    WriterLease.of(fs, table, TIMEOUT).acquire(FINISHING);

    try (LeaseKeeper starting = new LeaseKeeper("job-2", "sink", failures::add)) {
      long started = System.nanoTime();
      starting.acquire(fs, table, TIMEOUT);
      assertThat(Duration.ofNanos(System.nanoTime() - started))
          .as("waits for a release first")
          .isGreaterThanOrEqualTo(Duration.ofSeconds(3));
    }

    assertThat(failures)
        .singleElement()
        .isInstanceOf(SuppressRestartsException.class)
        .satisfies(
            failure ->
                assertThat(failure.getCause())
                    .isInstanceOf(WriterLeaseException.class)
                    .hasMessageContaining("job-1"));
  }
}
