package dev.mortar.benchmark.readcost;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mortar.benchmark.e2e.Flags;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The read-cost benchmark on a tiny run: the table compacted every 2 delta commits holds base files
 * and fewer logs in its latest slices than the uncompacted one, and Hudi's reader returns the same
 * keys from both.
 */
class ReadCostBenchmarkSmokeTest {
  private static final int CHECKPOINTS = 8;

  @Test
  void compactionLeavesFewerLogsToMergeAndTheSameKeys(@TempDir Path temp) throws Exception {
    Flags flags = ReadCostBenchmark.flags();
    flags.parse(
        new String[] {
          "--checkpoints", Integer.toString(CHECKPOINTS),
          "--rows-per-checkpoint", "200",
          "--keys", "1000",
          "--buckets", "2",
          "--parallelism", "2",
          "--compact-every", "2",
          "--reads", "1",
          "--work-dir", temp.toString()
        });

    List<ReadCost> costs = ReadCostBenchmark.run(flags);

    ReadCost compacted = costs.get(0);
    ReadCost uncompacted = costs.get(1);
    assertThat(compacted.services()).isEqualTo(new ReadCostBenchmark.Services(2, 0.5));
    assertThat(uncompacted.services()).isEqualTo(ReadCostBenchmark.Services.OFF);
    assertThat(uncompacted.files().deltaCommits()).isEqualTo(CHECKPOINTS);
    assertThat(uncompacted.files().baseFiles()).isZero();
    assertThat(uncompacted.files().compactions()).isZero();
    assertThat(compacted.files().compactions()).as(compacted.toString()).isPositive();
    assertThat(compacted.files().baseFiles()).as(compacted.toString()).isPositive();
    assertThat(compacted.files().latestSliceLogFiles())
        .as("%s against %s", compacted, uncompacted)
        .isLessThan(uncompacted.files().latestSliceLogFiles());
    // 1,600 upserts of 1,000 keys: most keys are written, none is lost to compaction.
    assertThat(uncompacted.keysRead()).isBetween(700L, 1000L);
    assertThat(compacted.keysRead()).isEqualTo(uncompacted.keysRead());
    assertThat(compacted.markdownRow())
        .startsWith("| compaction every 2 (log size ratio 0.5), clean, archive | 8 |");
    try (var left = Files.list(temp)) {
      assertThat(left).as("tables deleted after the run").isEmpty();
    }
  }
}
