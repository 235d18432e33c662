package dev.mortar.writer.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mortar.testing.Seeds;
import dev.mortar.writer.table.LeaseHolder;
import dev.mortar.writer.table.TableFileSystems;
import dev.mortar.writer.table.WriterLease;
import dev.mortar.writer.table.WriterLeaseException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.ExceptionUtils;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One writer per table (rfc/0004, "The writer lease"): a second job on a table fails at start
 * naming the running writer, which ends exact; a job restored from the running writer's savepoint
 * takes its place at once and the fenced writer fails instead of committing; the lease of a writer
 * that died expires. Hudi's reader judges every table. {@code -Dmortar.seed=S} fixes the seed.
 */
class WriterLeaseITCase {
  private static final Logger LOG = LoggerFactory.getLogger(WriterLeaseITCase.class);
  private static final int CHANGES = 4_000;
  private static final Duration RUN_LIMIT = Duration.ofMinutes(2);

  @RegisterExtension static final MiniClusterExtension MINI_CLUSTER = MiniClusters.withSlots(4);

  @TempDir Path dir;

  @Test
  void aSecondJobFailsAtStartNamingTheRunningWriterWhichEndsExact() throws Exception {
    long seed = Seeds.seed("WriterLeaseITCase");
    SinkJob job = job();
    Changelog changelog = Changelog.random(seed, CHANGES, 800, 100, 30);
    LOG.info("seed {}: {}", seed, job);
    JobClient first = startWriting(job, changelog);

    Throwable failure =
        RunningJobs.failureOf(
            submit(job, Changelog.random(seed + 1, 100, 10, 0, 0), null), RUN_LIMIT);
    String message = leaseError(failure).getMessage();
    assertThat(message)
        .contains("Cannot write the Mortar table at " + TableFileSystems.path(job.path()))
        .contains("held by job " + first.getJobID())
        .contains("on host ")
        .containsPattern("last heartbeat [0-9.]+ s ago")
        .contains("'writer.lease.timeout'");
    assertThat(first.getJobStatus().get()).as("the first job runs on").isEqualTo(JobStatus.RUNNING);

    first.getJobExecutionResult().get(RUN_LIMIT.toSeconds(), TimeUnit.SECONDS);
    job.verify(changelog);
    job.verifyNothingUncommittedLeft();
    assertThat(lease(job).read().orElseThrow().released())
        .as("a finished job releases its lease")
        .isTrue();
  }

  @Test
  void aJobRestoredFromTheWritersSavepointTakesOverAndTheFencedWriterFails() throws Exception {
    long seed = Seeds.seed("WriterLeaseITCase");
    SinkJob job = job();
    Changelog changelog = Changelog.random(seed, CHANGES, 800, 100, 30);
    LOG.info("seed {}: {}", seed, job);
    JobClient first = startWriting(job, changelog);
    String savepoint =
        first
            .triggerSavepoint(
                dir.resolve("savepoints").toUri().toString(), SavepointFormatType.CANONICAL)
            .get(RUN_LIMIT.toSeconds(), TimeUnit.SECONDS);

    JobClient restored = submit(job, changelog, savepoint);
    Throwable fenced = RunningJobs.failureOf(first, RUN_LIMIT);
    assertThat(leaseError(fenced).getMessage())
        .contains("Flink job " + first.getJobID() + " lost the writer lease")
        .contains("held by job " + restored.getJobID());
    restored.getJobExecutionResult().get(RUN_LIMIT.toSeconds(), TimeUnit.SECONDS);
    job.verify(changelog);
    job.verifyNothingUncommittedLeft();
  }

  @Test
  void theExpiredLeaseOfADeadWriterIsTakenOver() throws Exception {
    SinkJob job = job();
    Changelog changelog = Changelog.random(Seeds.seed("WriterLeaseITCase"), 1_000, 300, 30, 10);
    try (FileSystem fs = TableFileSystems.open(job.path())) {
      WriterLease lease =
          WriterLease.of(fs, TableFileSystems.path(job.path()), Duration.ofMinutes(1));
      long generation = lease.acquire(new LeaseHolder("dead", "dead job", "dead host", 0));
      org.apache.hadoop.fs.Path file =
          new org.apache.hadoop.fs.Path(lease.dir(), String.format("%019d", generation));
      fs.setTimes(file, System.currentTimeMillis() - Duration.ofMinutes(2).toMillis(), -1);
    }
    submit(job, changelog, null)
        .getJobExecutionResult()
        .get(RUN_LIMIT.toSeconds(), TimeUnit.SECONDS);
    job.verify(changelog);
  }

  /** A job of 40 checkpoints, 200 ms apart: still running when a second job has started. */
  private SinkJob job() {
    return SinkJob.at(dir.resolve("t").toUri().toString())
        .parallelism(2)
        .ordering(true)
        .perCheckpoint(100)
        .checkpointEvery(200)
        .build();
  }

  private WriterLease lease(SinkJob job) throws Exception {
    return WriterLease.of(
        TableFileSystems.open(job.path()),
        TableFileSystems.path(job.path()),
        Duration.ofMinutes(1));
  }

  /** Starts {@code job} on {@code changelog} and waits until it has committed twice. */
  private JobClient startWriting(SinkJob job, Changelog changelog) throws Exception {
    JobClient writer = submit(job, changelog, null);
    RunningJobs.awaitCommits(job.path(), 2, writer, RUN_LIMIT);
    return writer;
  }

  private JobClient submit(SinkJob job, Changelog changelog, String restoreFrom) throws Exception {
    StreamExecutionEnvironment env = job.environment();
    job.addDataStream(env, changelog);
    return Restores.submit(env, "mortar lease test", restoreFrom);
  }

  private static WriterLeaseException leaseError(Throwable failure) {
    Optional<WriterLeaseException> error =
        ExceptionUtils.findThrowable(failure, WriterLeaseException.class);
    assertThat(error).as("a WriterLeaseException in %s", failure).isPresent();
    return error.get();
  }
}
