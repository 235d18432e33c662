package dev.mortar.writer.it;

import dev.mortar.buffer.BufferOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.testutils.MiniClusterResource;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.util.TestStreamEnvironment;

/**
 * The failure campaign: many randomized runs ({@link RunPlan}), each a changelog of inserts,
 * updates, out-of-order updates and deletes written under injected failures, interrupted by a
 * savepoint, a cancel or a killed process and restored (from the newest or an older checkpoint,
 * with another parallelism or other buffers), then judged with Hudi's reader ({@link CampaignRun}).
 * Writes a report ({@link CampaignReport}) and prints the seed of every run, so a failing one
 * replays with {@code bin/campaign --seed S}.
 *
 * <p>{@link #main} is the command ({@code bin/campaign --runs 100}); {@code CampaignITCase} runs a
 * short campaign in CI on its own MiniCluster.
 */
public final class Campaign {
  /** The slots of the MiniCluster a campaign runs on: parallelism up to 3, and a source. */
  static final int SLOTS = 4;

  private Campaign() {}

  /**
   * Runs one run per seed in folders under {@code work} (each deleted once judged exact) on the
   * MiniCluster set as this JVM's context; reports each run to {@code progress} and rewrites the
   * report in {@code reportDir} after each, so a campaign cut short still leaves one.
   */
  static CampaignReport run(
      LongStream seeds,
      Path work,
      boolean killedProcesses,
      Path reportDir,
      String command,
      Consumer<String> progress)
      throws IOException, InterruptedException {
    long[] all = seeds.toArray();
    CampaignReport report = new CampaignReport();
    try (LazyStandaloneCluster standalone =
        new LazyStandaloneCluster(work.resolve("standalone"), SLOTS)) {
      for (int i = 0; i < all.length; i++) {
        Path dir = work.resolve("run-" + all[i]);
        Files.createDirectories(dir);
        RunPlan plan = RunPlan.draw(all[i], dir.resolve("t").toUri().toString(), killedProcesses);
        CampaignRun.Outcome outcome = CampaignRun.execute(plan, dir, standalone);
        report.add(outcome);
        progress.accept(CampaignReport.progressLine(i + 1, all.length, outcome));
        report.write(reportDir, command);
        if (outcome.verdict().clean()) {
          deleteRecursively(dir);
        }
      }
    }
    return report;
  }

  /** The MiniCluster's configuration: checkpoints retained for restores from an older one. */
  static Configuration clusterConfiguration() {
    Configuration conf = new Configuration();
    conf.set(CheckpointingOptions.MAX_RETAINED_CHECKPOINTS, Restores.RETAINED);
    return conf;
  }

  /**
   * {@code --runs N} (default 100), {@code --seed S} (replays one run), {@code --report DIR}
   * (default {@code target/campaign}), {@code --no-kill} (no killed processes). Exits 1 if a run
   * found a violation.
   */
  public static void main(String[] args) throws Exception {
    int runs = 100;
    Long seed = null;
    Path reportDir = Path.of("target/campaign");
    boolean killedProcesses = true;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--runs" -> runs = Integer.parseInt(args[++i]);
        case "--seed" -> seed = Long.parseLong(args[++i]);
        case "--report" -> reportDir = Path.of(args[++i]);
        case "--no-kill" -> killedProcesses = false;
        default ->
            throw new IllegalArgumentException(
                "unknown argument "
                    + args[i]
                    + " (expected --runs N, --seed S, --report DIR, --no-kill)");
      }
    }
    if (!Boolean.getBoolean(BufferOptions.STRICT_PROPERTY)) {
      throw new IllegalStateException(
          "run with -D" + BufferOptions.STRICT_PROPERTY + "=true (bin/campaign sets it)");
    }
    LongStream seeds = seed != null ? LongStream.of(seed) : ThreadLocalRandom.current().longs(runs);
    String command = "bin/campaign " + String.join(" ", args);
    MiniClusterResource cluster =
        new MiniClusterResource(
            new MiniClusterResourceConfiguration.Builder()
                .setConfiguration(clusterConfiguration())
                .setNumberTaskManagers(1)
                .setNumberSlotsPerTaskManager(SLOTS)
                .build());
    cluster.before();
    CampaignReport report;
    try {
      TestStreamEnvironment.setAsContext(cluster.getMiniCluster(), 1);
      Path work = Files.createTempDirectory("mortar-campaign");
      report = run(seeds, work, killedProcesses, reportDir, command, System.out::println);
    } finally {
      TestStreamEnvironment.unsetAsContext();
      cluster.after();
    }
    System.out.print(report.totalsTable());
    System.out.println("[campaign] report: " + reportDir.resolve("campaign.md"));
    System.exit(report.failed().isEmpty() ? 0 : 1);
  }

  private static void deleteRecursively(Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(file);
      }
    }
  }
}
