package dev.mortar.writer.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mortar.testing.Seeds;
import dev.mortar.writer.it.Failures.Fired;
import dev.mortar.writer.it.Failures.Plan;
import dev.mortar.writer.it.Failures.Point;
import java.nio.file.Path;
import java.util.List;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A failure at a chosen point and what the restarted job makes of it. The randomized failures
 * (every point of {@link Failures}, mixed with restores, rescales and killed processes) are the
 * {@link Campaign}'s ({@code CampaignITCase} in CI); this class holds the cases that need a failure
 * at one exact moment.
 */
class FailoverITCase {
  private static final Logger LOG = LoggerFactory.getLogger(FailoverITCase.class);
  private static final int CHANGES = 600;

  @RegisterExtension static final MiniClusterExtension MINI_CLUSTER = MiniClusters.withSlots(4);

  @TempDir Path dir;

  @AfterEach
  void disarm() {
    Failures.disarm();
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
}
