package dev.mortar.writer.it;

import static dev.mortar.writer.it.Failures.Point.COMPACTION_COMMIT_PUBLISH;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mortar.logformat.LogBlockFormat;
import dev.mortar.testing.HudiTableOracle;
import dev.mortar.testing.Seeds;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import javax.annotation.Nullable;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A whole job ended and started again by its user in a new process: the job runs in a process of
 * its own ({@link JobProcess}: JobManager and TaskManager in one JVM, no high availability) and
 * once the table has {@value #COMMITS_BEFORE_STOP} completed commits and a compaction planned (the
 * job compacts every 2 delta commits, as users' jobs compact by default) it is either killed with
 * SIGKILL, and a new process submits the same job restored from the newest retained checkpoint, or
 * stopped with a savepoint ({@code flink stop}), and a new process submits it restored from that
 * savepoint ({@code flink run -s}), or it halts by itself at an exact point of a commit. Flink
 * resets the sink's coordinator before starting it on these paths. The restored job must finish
 * with exactly the expected table (Hudi's reader), nothing pending, one file group per bucket and
 * no base file but those of completed compactions. {@code -Dmortar.restore.runs=N} runs N seeds of
 * each (default 1; {@code bin/campaign} kills more); {@code -Dmortar.seed=S} re-runs one.
 */
class ProcessRestoreITCase {
  private static final Logger LOG = LoggerFactory.getLogger(ProcessRestoreITCase.class);
  private static final int CHANGES = 6_000;
  private static final int COMMITS_BEFORE_STOP = 3;
  private static final Duration RUN_LIMIT = Duration.ofMinutes(3);

  @TempDir Path dir;

  static Stream<Long> seeds() {
    return Seeds.seeds(Integer.getInteger("mortar.restore.runs", 1)).boxed();
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void killedJobRestoredFromItsNewestCheckpointEndsExact(long seed) throws Exception {
    FirstRun first = startFirst(seed);
    first.process().kill();
    restoreAndVerify(first, newestCheckpoint(first));
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void jobStoppedWithASavepointRestoredInANewProcessEndsExact(long seed) throws Exception {
    FirstRun first = startFirst(seed);
    String savepoint = first.process().stopWithSavepoint(dir.resolve("savepoints"));
    assertThat(savepoint).as("seed %s: the job was stopped before its end", seed).isNotNull();
    restoreAndVerify(first, savepoint);
  }

  /**
   * The first process halts by itself, as SIGKILL would, at an exact moment: while publishing its
   * second delta commit, whose checkpoint has completed; its first compaction's commit, whose base
   * files are all written; the second file of its first archival, the archived timeline's new
   * snapshot half published; or its archiver's second deletion of an active timeline file, the
   * archive holding instants the active timeline still partly holds. Nothing of the process closes
   * or cleans up; a new process restores the newest retained checkpoint.
   */
  @ParameterizedTest(name = "{0}")
  @EnumSource(
      value = Failures.Point.class,
      names = {"COMMIT_PUBLISH", "COMPACTION_COMMIT_PUBLISH", "ARCHIVE_CREATE", "ARCHIVE_DELETE"})
  void jobHaltedAtAnExactMomentRestoredInANewProcessEndsExact(Failures.Point point)
      throws Exception {
    long seed = Seeds.seed("ProcessRestoreITCase " + point);
    FirstRun first =
        startFirst(seed, new Failures.Plan(point, point == COMPACTION_COMMIT_PUBLISH ? 1 : 2));
    assertThat(first.process().awaitHaltOrSuccess(RUN_LIMIT))
        .as("seed %s: the process halted at %s", seed, point)
        .isTrue();
    LOG.info("seed {}: halted at {}", seed, first.process().haltedAt());
    restoreAndVerify(first, newestCheckpoint(first));
  }

  private static String newestCheckpoint(FirstRun first) throws IOException {
    Optional<String> newest = Restores.newestCompletedCheckpoint(first.checkpoints());
    assertThat(newest).as("seed %s: a retained checkpoint", first.seed()).isPresent();
    return newest.get();
  }

  /** The first process of a seed's job. */
  private record FirstRun(
      long seed, SinkJob job, Changelog changelog, Path checkpoints, JobProcess process) {}

  /** Starts the first process and returns once it has committed and planned a compaction. */
  private FirstRun startFirst(long seed) throws Exception {
    FirstRun first = startFirst(seed, null);
    awaitCompletedCommits(first.job().path(), first.process(), seed);
    return first;
  }

  /** Starts the first process, which halts at {@code haltAt} if given. */
  private FirstRun startFirst(long seed, @Nullable Failures.Plan haltAt) throws Exception {
    SplittableRandom random = new SplittableRandom(seed);
    SinkJob job =
        SinkJob.at(dir.resolve("t").toUri().toString())
            .parallelism(2)
            .partitioned(random.nextBoolean())
            .ordering(random.nextBoolean())
            .format(random.nextBoolean() ? LogBlockFormat.AVRO : LogBlockFormat.PARQUET)
            .buckets(4)
            .perCheckpoint(300)
            .compactEvery(2)
            .cleanRetainCommits(2)
            .archiveBeyond(8)
            .build();
    Changelog changelog =
        Changelog.random(seed, CHANGES, 2_000, 100, 30).withoutStaleChangesAfterDeletes();
    Path checkpoints = dir.resolve("checkpoints");
    LOG.info("seed {}: {}", seed, job);
    JobProcess process =
        JobProcess.start(
            new JobProcess.Spec(job, changelog, checkpoints.toString(), null, haltAt),
            dir,
            "first");
    return new FirstRun(seed, job, changelog, checkpoints, process);
  }

  private void restoreAndVerify(FirstRun first, String restoreFrom) throws Exception {
    long seed = first.seed();
    SinkJob job = first.job();
    int committedBeforeRestore = HudiTableOracle.completedInstants(job.path()).size();
    LOG.info(
        "seed {}: stopped after {} commits; restoring from {}",
        seed,
        committedBeforeRestore,
        restoreFrom);
    JobProcess.start(
            new JobProcess.Spec(
                job, first.changelog(), first.checkpoints().toString(), restoreFrom),
            dir,
            "restored")
        .awaitSuccess(RUN_LIMIT);
    assertThat(HudiTableOracle.completedInstants(job.path()))
        .as("seed %s: the restored job committed", seed)
        .hasSizeGreaterThan(committedBeforeRestore);
    job.verify(first.changelog());
    job.verifyNothingUncommittedLeft();
    job.verifyOneFileGroupPerBucket();
    job.verifyCleansAndArchiveSettled();
    BaseFiles.read(job.path()).verifyOnlyCommittedBaseFiles(job.path(), "seed " + seed);
  }

  /**
   * Waits until the first run has committed {@value #COMMITS_BEFORE_STOP} instants and planned a
   * compaction.
   */
  private static void awaitCompletedCommits(String path, JobProcess process, long seed)
      throws Exception {
    long deadline = System.nanoTime() + RUN_LIMIT.toNanos();
    while (Restores.completedCommits(path) < COMMITS_BEFORE_STOP || !compactionPlanned(path)) {
      if (!process.isAlive() || System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "seed "
                + seed
                + ": the job "
                + (process.isAlive()
                    ? "made too few commits or no compaction plan in " + RUN_LIMIT
                    : "ended")
                + " before it could be stopped mid-stream:\n"
                + process.output());
      }
      Thread.sleep(50);
    }
  }

  private static boolean compactionPlanned(String path) throws IOException {
    Path timeline = Path.of(URI.create(path)).resolve(".hoodie/timeline");
    if (!Files.isDirectory(timeline)) {
      return false;
    }
    try (Stream<Path> files = Files.list(timeline)) {
      return files.anyMatch(f -> f.getFileName().toString().endsWith(".compaction.requested"));
    }
  }
}
