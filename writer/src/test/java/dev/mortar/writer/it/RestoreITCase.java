package dev.mortar.writer.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mortar.testing.HudiTableOracle;
import dev.mortar.testing.Seeds;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javax.annotation.Nullable;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ways a user starts a Mortar job from saved state, each ending with exactly the expected table
 * (Hudi's reader), nothing pending and one file group per bucket: stop with a savepoint and restore
 * with the same, a higher or a lower write parallelism or other buffer sizes; cancel and restore
 * from the newest retained checkpoint or from an older one (whose later rows are replayed onto a
 * table that already holds them); and a restore onto a table whose layout differs from the job's,
 * which fails when the job is built. Flink resets the sink's coordinator before starting it on
 * every one of these paths. {@code -Dmortar.seed=S} fixes the changelogs' seed (logged).
 */
class RestoreITCase {
  private static final Logger LOG = LoggerFactory.getLogger(RestoreITCase.class);
  private static final int CHANGES = 3_000;
  private static final Duration RUN_LIMIT = Duration.ofMinutes(3);

  @RegisterExtension
  static final MiniClusterExtension MINI_CLUSTER =
      MiniClusters.withSlots(4, maxRetainedCheckpoints());

  @TempDir Path dir;

  private static Configuration maxRetainedCheckpoints() {
    Configuration conf = new Configuration();
    conf.set(CheckpointingOptions.MAX_RETAINED_CHECKPOINTS, Restores.RETAINED);
    return conf;
  }

  static Stream<Arguments> shapes() {
    return Stream.of(
        Arguments.of(2, 2, false, 0),
        Arguments.of(2, 4, false, 0),
        Arguments.of(3, 1, false, 0),
        Arguments.of(2, 2, true, 0),
        Arguments.of(2, 3, false, 2));
  }

  @ParameterizedTest(
      name = "write parallelism {0} -> {1}, smaller buffers after: {2}, compaction every {3}")
  @MethodSource("shapes")
  void stopWithSavepointThenRestore(
      int before, int after, boolean smallerBuffersAfter, int compactEvery) throws Exception {
    long seed = Seeds.seed("RestoreITCase");
    SinkJob job = job(before).toBuilder().compactEvery(compactEvery).build();
    Changelog random = Changelog.random(seed, CHANGES, 800, 100, 30);
    Changelog changelog = compactEvery > 0 ? random.withoutStaleChangesAfterDeletes() : random;
    LOG.info("seed {}: {}, restored with parallelism {}", seed, job, after);
    JobClient first = submit(job, changelog, null);
    awaitCompletedCommits(job.path(), 2, first);
    String savepoint =
        first
            .stopWithSavepoint(
                false, dir.resolve("savepoints").toUri().toString(), SavepointFormatType.CANONICAL)
            .get(RUN_LIMIT.toSeconds(), TimeUnit.SECONDS);
    SinkJob restored = job.toBuilder().parallelism(after).smallBuffers(smallerBuffersAfter).build();
    finishRestoredFrom(savepoint, restored, changelog, seed);
  }

  @ParameterizedTest(name = "from the newest retained checkpoint: {0}")
  @ValueSource(booleans = {true, false})
  void cancelThenRestoreFromARetainedCheckpoint(boolean newest) throws Exception {
    long seed = Seeds.seed("RestoreITCase");
    SinkJob job = job(2);
    Changelog changelog = Changelog.random(seed, CHANGES, 800, 100, 30);
    LOG.info("seed {}: {}, restored from the newest checkpoint: {}", seed, job, newest);
    JobClient first = submit(job, changelog, null);
    awaitCompletedCommits(job.path(), Restores.RETAINED + 1, first);
    Restores.cancel(first, RUN_LIMIT);
    List<Path> retained = Restores.completedCheckpoints(checkpoints());
    assertThat(retained).as("seed %s: retained checkpoints", seed).hasSizeGreaterThan(1);
    Path from = newest ? retained.get(retained.size() - 1) : retained.get(0);
    finishRestoredFrom(from.toUri().toString(), job, changelog, seed);
  }

  @Test
  void aRestoreOntoATableOfAnotherLayoutFailsWhenTheJobIsBuilt() throws Exception {
    SinkJob job = job(2);
    Changelog changelog = Changelog.random(Seeds.seed("RestoreITCase"), CHANGES, 800, 100, 30);
    JobClient first = submit(job, changelog, null);
    awaitCompletedCommits(job.path(), 1, first);
    Restores.cancel(first, RUN_LIMIT);
    assertThat(Restores.completedCheckpoints(checkpoints())).isNotEmpty();
    assertFailsAtBuild(
        job.toBuilder().buckets(3).build(), "has 4 buckets per partition, the sink is set to 3");
    assertFailsAtBuild(job.toBuilder().partitioned(false).build(), "partition fields");
    assertFailsAtBuild(job.toBuilder().ordering(false).build(), "ordering field");
  }

  private void assertFailsAtBuild(SinkJob job, String message) {
    StreamExecutionEnvironment env = environment(job);
    assertThatThrownBy(() -> job.addDataStream(env, Changelog.random(1, 10, 10, 0, 0)))
        .hasMessageContaining(message);
  }

  /** Restores {@code job} from {@code savedState}, runs it to its end and checks the table. */
  private void finishRestoredFrom(String savedState, SinkJob job, Changelog changelog, long seed)
      throws Exception {
    int committedBefore = HudiTableOracle.completedInstants(job.path()).size();
    LOG.info("seed {}: {} commits before the restore from {}", seed, committedBefore, savedState);
    submit(job, changelog, savedState)
        .getJobExecutionResult()
        .get(RUN_LIMIT.toSeconds(), TimeUnit.SECONDS);
    assertThat(HudiTableOracle.completedInstants(job.path()))
        .as("seed %s: the restored job committed", seed)
        .hasSizeGreaterThan(committedBefore);
    job.verify(changelog);
    job.verifyNothingUncommittedLeft();
    job.verifyOneFileGroupPerBucket();
    assertThat(HudiClient.pendingCompactions(job.path()))
        .as("seed %s: pending compactions", seed)
        .isEmpty();
  }

  private SinkJob job(int parallelism) {
    return SinkJob.at(dir.resolve("t").toUri().toString())
        .parallelism(parallelism)
        .partitioned(true)
        .ordering(true)
        .buckets(4)
        .perCheckpoint(300)
        .build();
  }

  private Path checkpoints() {
    return dir.resolve("checkpoints");
  }

  private StreamExecutionEnvironment environment(SinkJob job) {
    return job.environment(Restores.retainingCheckpointsIn(checkpoints()));
  }

  private JobClient submit(SinkJob job, Changelog changelog, @Nullable String restoreFrom)
      throws Exception {
    StreamExecutionEnvironment env = environment(job);
    job.addDataStream(env, changelog);
    return Restores.submit(env, "mortar restore test", restoreFrom);
  }

  /** Waits until the table has {@code commits} completed instants while the job still runs. */
  private static void awaitCompletedCommits(String path, int commits, JobClient job)
      throws Exception {
    long deadline = System.nanoTime() + RUN_LIMIT.toNanos();
    while (Restores.completedCommits(path) < commits) {
      if (job.getJobStatus().get().isTerminalState() || System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "the job ("
                + job.getJobStatus().get()
                + ") did not reach "
                + commits
                + " commits while running");
      }
      Thread.sleep(20);
    }
  }
}
