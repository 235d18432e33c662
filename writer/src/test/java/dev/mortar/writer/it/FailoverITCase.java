package dev.mortar.writer.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mortar.buffer.Deduplication;
import dev.mortar.logformat.LogBlockFormat;
import dev.mortar.testing.Seeds;
import dev.mortar.writer.it.Failures.Fired;
import dev.mortar.writer.it.Failures.Plan;
import dev.mortar.writer.it.Failures.Point;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.hudi.common.table.HoodieTableMetaClient;
import org.apache.hudi.common.table.timeline.HoodieTimeline;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Exactly-once under failures: jobs get failure points of different kinds at random counts and run
 * under a restart strategy. Write path: in the pipeline before a write, at the creation of a log
 * file (start of a flush), in the middle of a log file's bytes (inside a write) and at the rename
 * that publishes a commit (after the checkpoint completed, before its commit file exists).
 * Compaction, in jobs that compact every 2 delta commits: at the creation of a base file, in the
 * middle of its bytes, and at the rename that publishes {@code C_X.commit} (every base file of
 * {@code C} written, its commit missing). Cleaning and archival, in jobs that also keep 2 commits
 * and archive beyond 8: at a delete of the cleaner, at a file of the archived timeline and at a
 * delete of the archiver. Hudi's reader must then show exactly the expected state (no duplicate,
 * lost or resurrected key), no instant may stay pending, no log file of an uncommitted instant and
 * no base file but those of completed compactions may be left.
 *
 * <p>{@code -Dmortar.failover.runs=N} runs N jobs of each kind (default 7 without compaction, i.e.
 * 21 failure points, 3 with, and 3 with cleaning and archival); {@code -Dmortar.seed=S} re-runs
 * one.
 */
class FailoverITCase {
  private static final Logger LOG = LoggerFactory.getLogger(FailoverITCase.class);
  private static final int POINTS_PER_JOB = 3;
  private static final int CHANGES = 600;
  private static final List<Point> COMPACTION_POINTS =
      List.of(Point.BASE_FILE_CREATE, Point.BASE_FILE_BYTES, Point.COMPACTION_COMMIT_PUBLISH);

  private static final List<Point> TABLE_SERVICE_POINTS =
      List.of(Point.CLEAN_DELETE, Point.ARCHIVE_CREATE, Point.ARCHIVE_DELETE);

  @RegisterExtension static final MiniClusterExtension MINI_CLUSTER = MiniClusters.withSlots(4);

  @TempDir Path dir;

  static Stream<Long> seeds() {
    return Seeds.seeds(Integer.getInteger("mortar.failover.runs", 7)).boxed();
  }

  static Stream<Long> compactionSeeds() {
    return Seeds.seeds(Integer.getInteger("mortar.failover.runs", 3)).boxed();
  }

  @AfterEach
  void disarm() {
    Failures.disarm();
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void exactStateAfterInjectedFailures(long seed) throws Exception {
    SplittableRandom random = new SplittableRandom(seed);
    SinkJob job =
        randomJob(random)
            .deduplication(random.nextBoolean() ? Deduplication.ON_READ : Deduplication.ON_APPEND)
            .build();
    Changelog changelog = Changelog.random(seed, CHANGES, 150, 100, 30);
    List<Point> points = new ArrayList<>(Point.WRITE_PATH);
    List<Plan> plans = new ArrayList<>();
    while (plans.size() < POINTS_PER_JOB) {
      plans.add(Plan.random(points.remove(random.nextInt(points.size())), CHANGES, random));
    }
    runWithFailures(seed, job, changelog, plans, random);
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("compactionSeeds")
  void exactStateAfterInjectedFailuresInCompaction(long seed) throws Exception {
    SplittableRandom random = new SplittableRandom(seed);
    SinkJob job = randomJob(random).compactEvery(2).build();
    Changelog changelog =
        Changelog.random(seed, CHANGES, 150, 100, 30).withoutStaleChangesAfterDeletes();
    List<Plan> plans = randomPlansWithCompaction(random);
    runWithFailures(seed, job, changelog, plans, random);
    BaseFiles.read(job.path()).verifyOnlyCommittedBaseFiles(job.path(), "seed " + seed);
  }

  /**
   * Two failures among the cleaner's deletes, the archive's files and the archiver's deletes, in a
   * job that compacts every 2 delta commits, keeps 2 commits and archives beyond 8: besides the
   * exact state, every clean completes, Hudi loads the archived timeline and no archival is left
   * half done.
   */
  @ParameterizedTest(name = "seed {0}")
  @MethodSource("compactionSeeds")
  void exactStateAfterInjectedFailuresInCleaningAndArchival(long seed) throws Exception {
    SplittableRandom random = new SplittableRandom(seed);
    SinkJob job =
        randomJob(random)
            .perCheckpoint(20)
            .compactEvery(2)
            .cleanRetainCommits(2)
            .archiveBeyond(8)
            .build();
    Changelog changelog =
        Changelog.random(seed, CHANGES, 150, 100, 30).withoutStaleChangesAfterDeletes();
    List<Point> points = new ArrayList<>(TABLE_SERVICE_POINTS);
    List<Plan> plans = new ArrayList<>();
    while (plans.size() < 2) {
      plans.add(Plan.random(points.remove(random.nextInt(points.size())), CHANGES, random));
    }
    runWithFailures(seed, job, changelog, plans, random);
    BaseFiles.read(job.path()).verifyOnlyCommittedBaseFiles(job.path(), "seed " + seed);
    HoodieTableMetaClient metaClient = HudiClient.metaClient(job.path());
    HoodieTimeline cleans = metaClient.getActiveTimeline().getCleanerTimeline();
    assertThat(cleans.filterInflightsAndRequested().countInstants())
        .as("pending cleans, seed %s", seed)
        .isZero();
    assertThat(cleans.filterCompletedInstants().countInstants())
        .as("completed cleans, seed %s", seed)
        .isPositive();
    assertThat(metaClient.getArchivedTimeline().getInstants())
        .as("archived instants, seed %s", seed)
        .isNotEmpty();
    assertThat(dir.resolve("t/.hoodie/.temp/archive.pending"))
        .as("an archival left half done, seed %s", seed)
        .doesNotExist();
  }

  /**
   * The job fails after every base file of a compaction {@code C} is written, before {@code
   * C_X.commit} is published; the restarted job executes the plan again and completes the same
   * {@code C}, with one base file per file group.
   */
  @Test
  void restartedJobCompletesTheCompactionWhoseCommitFailed() throws Exception {
    long seed = Seeds.seed("FailoverITCase.restartedJobCompletesTheCompactionWhoseCommitFailed");
    SinkJob job =
        SinkJob.at(dir.resolve("t").toUri().toString())
            .parallelism(2)
            .partitioned(true)
            .compactEvery(2)
            .restarts(true)
            .build();
    Changelog changelog =
        Changelog.random(seed, CHANGES, 150, 100, 30).withoutStaleChangesAfterDeletes();
    Failures.arm(List.of(new Plan(Point.COMPACTION_COMMIT_PUBLISH, 1)));
    job.runDataStream(changelog);

    List<Fired> fired = Failures.fired();
    assertThat(fired).as("seed %s", seed).hasSize(1);
    String commitFile = fired.get(0).file();
    String instant = commitFile.substring(0, commitFile.indexOf('_'));
    LOG.info("seed {}: publishing {} failed", seed, commitFile);
    BaseFiles baseFiles = BaseFiles.read(job.path());
    assertThat(baseFiles.committed())
        .as("completed compactions, seed %s (publishing %s failed)", seed, commitFile)
        .containsKey(instant);
    assertThat(baseFiles.onDisk().get(instant))
        .as("base files of %s, seed %s", instant, seed)
        .isNotEmpty();
    baseFiles.verifyOnlyCommittedBaseFiles(job.path(), "seed " + seed);
    job.verify(changelog);
    job.verifyNothingUncommittedLeft();
  }

  /** A job of random shape (parallelism, partitioning, ordering, block format) with restarts. */
  private SinkJob.Builder randomJob(SplittableRandom random) {
    return SinkJob.at(dir.resolve("t").toUri().toString())
        .parallelism(1 + random.nextInt(2))
        .partitioned(random.nextBoolean())
        .ordering(random.nextBoolean())
        .format(random.nextBoolean() ? LogBlockFormat.AVRO : LogBlockFormat.PARQUET)
        .restarts(true);
  }

  /**
   * 1 to 3 failure points of different kinds (write path and compaction), one of them in
   * compaction, in random order.
   */
  private static List<Plan> randomPlansWithCompaction(SplittableRandom random) {
    List<Point> kinds = new ArrayList<>(List.of(Point.values()));
    kinds.removeAll(TABLE_SERVICE_POINTS);
    int count = 1 + random.nextInt(POINTS_PER_JOB);
    int inCompaction = random.nextInt(count);
    List<Plan> plans = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      List<Point> from =
          i == inCompaction
              ? kinds.stream().filter(COMPACTION_POINTS::contains).toList()
              : List.copyOf(kinds);
      Point point = from.get(random.nextInt(from.size()));
      kinds.remove(point);
      plans.add(Plan.random(point, CHANGES, random));
    }
    return plans;
  }

  /**
   * Runs {@code job} (through SQL one time in four) with {@code plans} armed; every point must fire
   * and the table must read exactly the expected state, with nothing uncommitted left.
   */
  private static void runWithFailures(
      long seed, SinkJob job, Changelog changelog, List<Plan> plans, SplittableRandom random)
      throws Exception {
    LOG.info("seed {}: {} with failures {}", seed, job, plans);
    Failures.arm(plans);
    if (random.nextInt(4) == 0) {
      job.runSql(changelog);
    } else {
      job.runDataStream(changelog);
    }
    assertThat(Failures.fired())
        .as("seed %s: every failure point fired", seed)
        .hasSize(plans.size());
    LOG.info("seed {}: fired {}", seed, Failures.fired());
    job.verify(changelog);
    job.verifyNothingUncommittedLeft();
  }
}
