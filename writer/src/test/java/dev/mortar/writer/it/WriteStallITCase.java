package dev.mortar.writer.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mortar.testing.Seeds;
import dev.mortar.writer.MortarSink;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Metric;
import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A job whose compaction is made slow (every base file waits before it is created) and whose plans
 * take every slice with logs stalls its writer: the write tasks hold their input, and the log files
 * a reader merges per file group stay under a bound derived from the stall limits, sampled while
 * the job runs and at its end. The job finishes with every plan committed and Hudi's reader shows
 * exactly the expected rows.
 */
class WriteStallITCase {
  private static final Logger LOG = LoggerFactory.getLogger(WriteStallITCase.class);
  private static final InMemoryReporter REPORTER = InMemoryReporter.createWithRetainedMetrics();

  @RegisterExtension
  static final MiniClusterExtension MINI_CLUSTER =
      MiniClusters.withSlots(4, REPORTER.addToConfiguration(new Configuration()));

  private static final int MAX_PENDING_PLANS = 1;
  private static final int MAX_LAG = 2;
  private static final int DELTA_COMMITS_PER_PLAN = 2;

  /**
   * Delta commits that may complete after a check that found compaction not behind: the instant
   * that check started (a write task asks for its instant, and learns the decision, only when it
   * flushes at the barrier, so that interval's input is already taken), the next interval's (not
   * held, as the check said), an earlier instant whose checkpoint's completion was not yet
   * committed, and one more when a checkpoint's notification was subsumed by the next one's (both
   * instants then commit in one round).
   */
  private static final int OVERSHOOT = 4;

  /**
   * Logs a reader merges for a file group with a pending plan P after its last completed compaction
   * C: those P compacts and those after P. While C was pending at most the lag limit plus overshoot
   * completed after C; once C completed, P is due after at most the plan interval's delta commits
   * (counted from the planner's last attempt, which found every group in C); after P, the lag limit
   * plus overshoot again.
   */
  private static final int MAX_MERGED_LOGS = 2 * (MAX_LAG + OVERSHOOT) + DELTA_COMMITS_PER_PLAN;

  @TempDir Path dir;

  @AfterEach
  void fastBaseFiles() {
    FaultyLocalFileSystem.slowBaseFiles(0);
  }

  @Test
  void slowCompactionStallsTheWriterAndBoundsTheLogsPerSlice() throws Exception {
    long seed = Seeds.seed("WriteStallITCase");
    LOG.info("seed {}", seed);
    Changelog changelog =
        Changelog.random(seed, 1200, 200, 60, 20).withoutStaleChangesAfterDeletes();
    SinkJob job =
        SinkJob.at(dir.resolve("t").toUri().toString())
            .parallelism(2)
            .compactEvery(DELTA_COMMITS_PER_PLAN)
            .build();
    FaultyLocalFileSystem.slowBaseFiles(2000);

    StreamExecutionEnvironment env = job.environment();
    MortarSink.builder(Changelog.ROW_TYPE)
        .path(job.path())
        .recordKey("id")
        .buckets(job.buckets())
        .parallelism(job.parallelism())
        .compactionDeltaCommits(DELTA_COMMITS_PER_PLAN)
        .compactionLogSizeRatio(0)
        .stallPendingCompactions(MAX_PENDING_PLANS)
        .stallCompactionLag(MAX_LAG)
        .stallMaxWait(Duration.ofSeconds(30))
        .build()
        .sinkTo(
            env.addSource(
                    new ChangelogSource<>(changelog, List.of(), 20, Changelog.Op::toRowData),
                    "changelog",
                    InternalTypeInfo.of(Changelog.ROW_TYPE))
                .setParallelism(1));
    long started = System.nanoTime();
    JobClient client = env.executeAsync("write stall");
    int mostMergedLogs = 0;
    while (!client.getJobStatus().get().isGloballyTerminalState()) {
      mostMergedLogs = Math.max(mostMergedLogs, MergedLogs.read(job.path()).most());
      Thread.sleep(50);
    }
    client.getJobExecutionResult().get();
    long seconds = Math.max(1, (System.nanoTime() - started) / 1_000_000_000L);
    MergedLogs atEnd = MergedLogs.read(job.path());
    mostMergedLogs = Math.max(mostMergedLogs, atEnd.most());

    long stallMillis = writerCounter("mortar.stallTimeMs");
    LOG.info(
        "{} delta commits, {} compactions in {} s; write tasks held their input {} ms; at most {}"
            + " logs merged per file group",
        atEnd.deltaCommits,
        atEnd.completedCompactions.size(),
        seconds,
        stallMillis,
        mostMergedLogs);
    assertThat(stallMillis).as("write stall time, seed %s", seed).isPositive();
    assertThat(writerGauges("mortar.stalled")).as("stalled gauges").isNotEmpty();
    assertThat(mostMergedLogs)
        .as("logs merged per file group, seed %s", seed)
        .isLessThanOrEqualTo(MAX_MERGED_LOGS);
    assertThat(atEnd.pendingCompactions).as("pending compactions at the end").isZero();
    job.verify(changelog);
    job.verifyNothingUncommittedLeft();
  }

  private static long writerCounter(String suffix) {
    return metrics(suffix).stream().mapToLong(metric -> ((Counter) metric).getCount()).sum();
  }

  private static List<Object> writerGauges(String suffix) {
    return metrics(suffix).stream().map(metric -> (Object) ((Gauge<?>) metric).getValue()).toList();
  }

  /** The metrics whose identifier ends with {@code suffix}, of every task of this job. */
  private static List<Metric> metrics(String suffix) {
    List<Metric> found = new ArrayList<>();
    REPORTER
        .getMetricsByGroup()
        .forEach(
            (group, metrics) ->
                metrics.forEach(
                    (name, metric) -> {
                      if (group.getMetricIdentifier(name).endsWith(suffix)) {
                        found.add(metric);
                      }
                    }));
    return found;
  }

  /**
   * One look at the table: per file group, the logs a reader merges, those whose delta commit
   * completed after the group's newest base file of a completed compaction.
   */
  private record MergedLogs(
      int deltaCommits,
      TreeSet<String> completedCompactions,
      int pendingCompactions,
      Map<String, Integer> perGroup) {

    int most() {
      return perGroup.values().stream().mapToInt(Integer::intValue).max().orElse(0);
    }

    static MergedLogs read(String path) throws IOException {
      Path base = Path.of(URI.create(path));
      Map<String, String> deltaCommitCompletions = new HashMap<>();
      TreeSet<String> completed = new TreeSet<>();
      int requested = 0;
      List<String> timeline = list(base.resolve(".hoodie/timeline"));
      for (String name : timeline) {
        if (!Character.isDigit(name.charAt(0))) {
          continue;
        }
        String times = name.substring(0, name.indexOf('.'));
        if (name.endsWith(".compaction.requested")) {
          requested++;
        } else if (name.endsWith(".commit")) {
          completed.add(times.substring(0, 17));
        } else if (name.endsWith(".deltacommit") && times.contains("_")) {
          deltaCommitCompletions.put(times.substring(0, 17), times.substring(18));
        }
      }
      Map<String, String> newestBase = new HashMap<>();
      Map<String, List<String>> logCommits = new HashMap<>();
      for (String name : list(base)) {
        if (name.contains(".log.") && !name.endsWith(".crc")) {
          String fileId = name.substring(1, name.indexOf('_'));
          String commit = name.substring(name.indexOf('_') + 1, name.indexOf(".log."));
          logCommits.computeIfAbsent(fileId, g -> new ArrayList<>()).add(commit);
        } else if (name.endsWith(".parquet")) {
          String fileId = name.substring(0, name.indexOf('_'));
          String instant = name.substring(name.lastIndexOf('_') + 1, name.length() - 8);
          if (completed.contains(instant)) {
            newestBase.merge(fileId, instant, (a, b) -> a.compareTo(b) >= 0 ? a : b);
          }
        }
      }
      Map<String, Integer> perGroup = new HashMap<>();
      logCommits.forEach(
          (group, commits) -> {
            String since = newestBase.getOrDefault(group, "0");
            int merged = 0;
            for (String commit : commits) {
              String completion = deltaCommitCompletions.get(commit);
              if (completion != null && completion.compareTo(since) >= 0) {
                merged++;
              }
            }
            perGroup.put(group, merged);
          });
      return new MergedLogs(
          deltaCommitCompletions.size(), completed, requested - completed.size(), perGroup);
    }

    /** The names of the files in {@code directory}; a file removed while listing is left out. */
    private static List<String> list(Path directory) throws IOException {
      if (!Files.isDirectory(directory)) {
        return List.of();
      }
      try (Stream<Path> files = Files.list(directory)) {
        return files.map(file -> file.getFileName().toString()).toList();
      }
    }
  }
}
