package dev.mortar.benchmark.compaction;

import dev.mortar.writer.OfflineCompaction;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import javax.annotation.Nullable;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * Mortar's offline compactor ({@link OfflineCompaction}) with one compaction task and no clean (the
 * Hudi side only compacts), as {@code bin/compact --clean-retain-commits 0} runs it: a bounded
 * Flink job on a local MiniCluster started for the run, so Flink's start and stop count in the
 * process figures and not in the compaction thread's.
 */
final class MortarCompactor implements Compactor {
  @Nullable private final MemorySize memory;

  /**
   * @param memory {@code compaction.memory} of the task, null for the option's default
   */
  MortarCompactor(@Nullable MemorySize memory) {
    this.memory = memory;
  }

  @Override
  public String name() {
    return "mortar";
  }

  @Override
  public String compactionThreadPrefix() {
    return "mortar-compactor-";
  }

  @Override
  public void compactPending(Path table) throws Exception {
    Configuration conf = new Configuration();
    conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
    OfflineCompaction.compact(
        StreamExecutionEnvironment.getExecutionEnvironment(conf),
        table.toUri().toString(),
        1,
        memory,
        0,
        new PrintStream(OutputStream.nullOutputStream()));
  }
}
