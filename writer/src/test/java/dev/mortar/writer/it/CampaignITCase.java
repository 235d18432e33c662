package dev.mortar.writer.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mortar.testing.Seeds;
import java.nio.file.Path;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The short failure campaign of CI: {@code -Dmortar.campaign.runs=N} randomized runs (default 14;
 * the {@code flink-2.2} and {@code flink-2.3} modules run 6 more each on their Flink) of {@link
 * Campaign}, each with its seed in the log; none may find a violation. The report lands in {@code
 * target/campaign}. {@code -Dmortar.seed=S} replays one run. It draws no killed process (a JVM
 * each): {@code ProcessRestoreITCase} kills processes in CI, {@code bin/campaign} draws them too.
 */
class CampaignITCase {
  private static final Logger LOG = LoggerFactory.getLogger(CampaignITCase.class);

  @RegisterExtension
  static final MiniClusterExtension MINI_CLUSTER =
      MiniClusters.withSlots(Campaign.SLOTS, Campaign.clusterConfiguration());

  @TempDir Path dir;

  @Test
  void everyRunEndsExactWithNothingLeaked() throws Exception {
    int runs = Integer.getInteger("mortar.campaign.runs", 14);
    CampaignReport report =
        Campaign.run(
            Seeds.seeds(runs),
            dir,
            false,
            Path.of("target/campaign"),
            "CampaignITCase, " + runs + " runs",
            line -> LOG.info("{}", line));
    LOG.info("{}", report.markdown("CampaignITCase"));
    assertThat(report.failed())
        .as("runs with violations (seeds and examples in target/campaign/campaign.md)")
        .isEmpty();
    assertThat(report.outcomes()).hasSize(Long.getLong(Seeds.PROPERTY) == null ? runs : 1);
  }
}
