package dev.mortar.writer.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mortar.buffer.Deduplication;
import dev.mortar.logformat.LogBlockFormat;
import dev.mortar.testing.Seeds;
import dev.mortar.writer.it.Failures.Plan;
import dev.mortar.writer.it.Failures.Point;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Exactly-once under failures: each job gets {@value #POINTS_PER_JOB} failure points of different
 * kinds at random counts — in the pipeline before a write, at the creation of a log file (start of
 * a flush), in the middle of a log file's bytes (inside a write) and at the rename that publishes a
 * commit (after the checkpoint completed, before its commit file exists) — and runs under a restart
 * strategy. Hudi's reader must then show exactly the expected state (no duplicate, lost or
 * resurrected key), no instant may stay pending and no log file of an uncommitted instant may be
 * left. {@code -Dmortar.failover.runs=N} runs N jobs (default 7, i.e. 21 failure points); {@code
 * -Dmortar.seed=S} re-runs one.
 */
class FailoverITCase {
  private static final Logger LOG = LoggerFactory.getLogger(FailoverITCase.class);
  private static final int POINTS_PER_JOB = 3;
  private static final int CHANGES = 600;

  @RegisterExtension static final MiniClusterExtension MINI_CLUSTER = MiniClusters.withSlots(4);

  @TempDir Path dir;

  static Stream<Long> seeds() {
    return Seeds.seeds(Integer.getInteger("mortar.failover.runs", 7)).boxed();
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
        SinkJob.at(dir.resolve("t").toUri().toString())
            .parallelism(1 + random.nextInt(2))
            .partitioned(random.nextBoolean())
            .ordering(random.nextBoolean())
            .format(random.nextBoolean() ? LogBlockFormat.AVRO : LogBlockFormat.PARQUET)
            .restarts(true)
            .deduplication(random.nextBoolean() ? Deduplication.ON_READ : Deduplication.ON_APPEND)
            .build();
    Changelog changelog = Changelog.random(seed, CHANGES, 150, 100, 30);
    List<Point> points = new ArrayList<>(List.of(Point.values()));
    List<Plan> plans = new ArrayList<>();
    while (plans.size() < POINTS_PER_JOB) {
      plans.add(randomPlan(points.remove(random.nextInt(points.size())), random));
    }
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
    job.verify(changelog);
    job.verifyNothingUncommittedLeft();
  }

  /** A failure of {@code point} at a count every job reaches. */
  private static Plan randomPlan(Point point, SplittableRandom random) {
    return new Plan(
        point,
        switch (point) {
          case SOURCE_OFFSET -> 1 + random.nextInt(CHANGES - 1);
          case LOG_CREATE -> 1 + random.nextInt(4);
          case LOG_BYTES -> 100 + random.nextInt(4000);
          case COMMIT_PUBLISH -> 1 + random.nextInt(2);
        });
  }
}
