package dev.mortar.writer.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mortar.logformat.LogBlockFormat;
import dev.mortar.testing.HudiTableOracle;
import dev.mortar.testing.Seeds;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A whole job lost and started again by its user: the job runs in a process of its own ({@link
 * JobProcess}: JobManager and TaskManager in one JVM, no high availability), is killed with SIGKILL
 * mid-stream once the table has {@value #COMMITS_BEFORE_KILL} completed commits and a compaction
 * planned (the job compacts every 2 delta commits, as users' jobs compact by default), and a new
 * process submits the same job restored from the newest retained checkpoint. Flink resets the
 * sink's coordinator before starting it on this path. The restored job must finish with exactly the
 * expected table (Hudi's reader), nothing pending, one file group per bucket and no base file but
 * those of completed compactions. {@code -Dmortar.restore.runs=N} runs N seeds (default 2; {@code
 * bin/campaign} kills more); {@code -Dmortar.seed=S} re-runs one.
 */
class KilledJobRestoreITCase {
  private static final Logger LOG = LoggerFactory.getLogger(KilledJobRestoreITCase.class);
  private static final int CHANGES = 6_000;
  private static final int COMMITS_BEFORE_KILL = 3;
  private static final Duration RUN_LIMIT = Duration.ofMinutes(3);

  @TempDir Path dir;

  static Stream<Long> seeds() {
    return Seeds.seeds(Integer.getInteger("mortar.restore.runs", 2)).boxed();
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void killedJobRestoredFromItsNewestCheckpointEndsExact(long seed) throws Exception {
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
            .build();
    Changelog changelog =
        Changelog.random(seed, CHANGES, 2_000, 100, 30).withoutStaleChangesAfterDeletes();
    String checkpoints = dir.resolve("checkpoints").toString();
    LOG.info("seed {}: {}", seed, job);

    JobProcess first =
        JobProcess.start(new JobProcess.Spec(job, changelog, checkpoints, null), dir, "first");
    awaitCompletedCommits(job.path(), first, seed);
    first.kill();
    int committedBeforeRestore = HudiTableOracle.completedInstants(job.path()).size();
    List<Path> retained = Restores.completedCheckpoints(Path.of(checkpoints));
    assertThat(retained).as("seed %s: retained checkpoints", seed).isNotEmpty();
    Path newest = retained.get(retained.size() - 1);
    LOG.info(
        "seed {}: killed after {} commits; restoring from {}",
        seed,
        committedBeforeRestore,
        newest);

    JobProcess.start(
            new JobProcess.Spec(job, changelog, checkpoints, newest.toUri().toString()),
            dir,
            "restored")
        .awaitSuccess(RUN_LIMIT);
    assertThat(HudiTableOracle.completedInstants(job.path()))
        .as("seed %s: the restored job committed", seed)
        .hasSizeGreaterThan(committedBeforeRestore);
    job.verify(changelog);
    job.verifyNothingUncommittedLeft();
    job.verifyOneFileGroupPerBucket();
    BaseFiles.read(job.path()).verifyOnlyCommittedBaseFiles(job.path(), "seed " + seed);
  }

  /**
   * Waits until the first run has committed {@value #COMMITS_BEFORE_KILL} instants and planned a
   * compaction.
   */
  private static void awaitCompletedCommits(String path, JobProcess process, long seed)
      throws Exception {
    long deadline = System.nanoTime() + RUN_LIMIT.toNanos();
    while (Restores.completedCommits(path) < COMMITS_BEFORE_KILL || !compactionPlanned(path)) {
      if (!process.isAlive() || System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "seed "
                + seed
                + ": the job "
                + (process.isAlive()
                    ? "made too few commits or no compaction plan in " + RUN_LIMIT
                    : "ended")
                + " before it could be killed mid-stream:\n"
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
