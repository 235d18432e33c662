package dev.mortar.writer.it;

import dev.mortar.testing.HudiTableOracle;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javax.annotation.Nullable;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExternalizedCheckpointRetention;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.runtime.jobgraph.SavepointRestoreSettings;
import org.apache.flink.runtime.scheduler.stopwithsavepoint.StopWithSavepointStoppingException;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.apache.flink.util.ExceptionUtils;

/**
 * How a user keeps checkpoints and starts a job from one: the configuration that retains the last
 * {@value #RETAINED} checkpoints in a folder (on cancellation too), the completed ones found there,
 * a submission restored from a checkpoint or savepoint, as {@code execution.savepoint.path} does,
 * and a stop with a savepoint.
 */
final class Restores {
  private static final int MAX_WALKS = 10;

  static final int RETAINED = 3;
  private static final int STOP_ATTEMPTS = 5;

  private Restores() {}

  /** Checkpoints written under {@code dir} and kept when the job is cancelled or killed. */
  static Configuration retainingCheckpointsIn(Path dir) {
    Configuration conf = new Configuration();
    conf.set(CheckpointingOptions.CHECKPOINTS_DIRECTORY, dir.toUri().toString());
    conf.set(
        CheckpointingOptions.EXTERNALIZED_CHECKPOINT_RETENTION,
        ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION);
    conf.set(CheckpointingOptions.MAX_RETAINED_CHECKPOINTS, RETAINED);
    return conf;
  }

  /**
   * The completed checkpoints under {@code dir} ({@code <job id>/chk-N} folders whose metadata is
   * written), oldest first.
   */
  static List<Path> completedCheckpoints(Path dir) throws IOException {
    for (int walk = 1; ; walk++) {
      if (!Files.isDirectory(dir)) {
        return List.of();
      }
      try (Stream<Path> folders = Files.find(dir, 2, (path, attributes) -> isCompleted(path))) {
        return folders.sorted(Comparator.comparingLong(Restores::checkpointId)).toList();
      } catch (UncheckedIOException e) {
        // Flink deletes a subsumed checkpoint at any time; a walk that met one vanishing is redone.
        if (!(e.getCause() instanceof NoSuchFileException) || walk == MAX_WALKS) {
          throw e;
        }
      }
    }
  }

  /** The newest completed checkpoint under {@code dir}, as a URI to restore from; empty if none. */
  static Optional<String> newestCompletedCheckpoint(Path dir) throws IOException {
    List<Path> completed = completedCheckpoints(dir);
    return completed.isEmpty()
        ? Optional.empty()
        : Optional.of(completed.get(completed.size() - 1).toUri().toString());
  }

  private static boolean isCompleted(Path folder) {
    return folder.getFileName().toString().startsWith("chk-")
        && Files.isRegularFile(folder.resolve("_metadata"));
  }

  private static long checkpointId(Path folder) {
    return Long.parseLong(folder.getFileName().toString().substring("chk-".length()));
  }

  /** Completed commits of the table at {@code path}; 0 while the job has not created it yet. */
  static int completedCommits(String path) {
    boolean created = Files.exists(Path.of(URI.create(path)).resolve(".hoodie/hoodie.properties"));
    return created ? HudiTableOracle.completedInstants(path).size() : 0;
  }

  /** Submits the job built on {@code env}, started from {@code restoreFrom} when it is not null. */
  static JobClient submit(StreamExecutionEnvironment env, String name, @Nullable String restoreFrom)
      throws Exception {
    StreamGraph graph = env.getStreamGraph();
    graph.setJobName(name);
    if (restoreFrom != null) {
      graph.setSavepointRestoreSettings(SavepointRestoreSettings.forPath(restoreFrom, false));
    }
    return env.executeAsync(graph);
  }

  /**
   * Cancels the job and waits until it is cancelled: {@code JobClient.cancel()} completes once the
   * JobManager has accepted the request, while the job's tasks still close their operators
   * (flushes, compactions and archival runs finishing). A restore started before then runs beside
   * them, as two writers, which a user who waits for the job's status does not see.
   *
   * @return the job's terminal status
   * @throws IllegalStateException if the job is not terminal within {@code limit}
   */
  static JobStatus cancel(JobClient job, Duration limit) throws Exception {
    job.cancel().get(limit.toSeconds(), TimeUnit.SECONDS);
    long deadline = System.nanoTime() + limit.toNanos();
    JobStatus status = job.getJobStatus().get();
    while (!status.isGloballyTerminalState()) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "the job is still " + status + " " + limit + " after cancel");
      }
      Thread.sleep(20);
      status = job.getJobStatus().get();
    }
    return status;
  }

  /**
   * Stops the job with a savepoint in {@code target}, as a user does: a stop that fails because a
   * task failed (an injected failure that fired just before, the job restarting) is tried again, up
   * to {@value #STOP_ATTEMPTS} times; one whose savepoint was taken before a task failed while
   * stopping gives that savepoint, after cancelling the job; null if the job finished in the
   * meantime.
   */
  @Nullable
  static String stopWithSavepoint(JobClient job, String target, Duration limit) throws Exception {
    for (int attempt = 1; ; attempt++) {
      try {
        return job.stopWithSavepoint(false, target, SavepointFormatType.CANONICAL)
            .get(limit.toSeconds(), TimeUnit.SECONDS);
      } catch (ExecutionException e) {
        Optional<StopWithSavepointStoppingException> failedAfterSavepoint =
            ExceptionUtils.findThrowable(e, StopWithSavepointStoppingException.class);
        if (failedAfterSavepoint.isPresent()) {
          // The savepoint is whole and a task failed while the job stopped after it: Flink tells
          // its user to start again from that savepoint, once the job (restarting) is cancelled.
          if (!job.getJobStatus().get().isGloballyTerminalState()) {
            cancel(job, limit);
          }
          return failedAfterSavepoint.get().getSavepointPath();
        }
        JobStatus status = job.getJobStatus().get();
        if (status == JobStatus.FINISHED) {
          return null;
        }
        if (attempt == STOP_ATTEMPTS || status.isTerminalState()) {
          throw e;
        }
        Thread.sleep(200);
      }
    }
  }
}
