package dev.mortar.writer.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mortar.logformat.LogBlockFormat;
import dev.mortar.testing.Seeds;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Jobs that compact in the job, every 2 delta commits (one of them taking a slice with a base file
 * only once its logs reach the base file's bytes or 4 files), judged by Hudi's reader: after the
 * job no compaction is pending, the table reads exactly the latest row per key, every file group's
 * latest slice has few logs, and every base file belongs to a completed compaction. Then Hudi's own
 * Java client compacts and cleans the table Mortar compacted, and a second Mortar job compacts on
 * top of the base files Hudi wrote; the read stays exact throughout.
 */
class CompactionITCase {
  private static final Logger LOG = LoggerFactory.getLogger(CompactionITCase.class);

  /** Log files at which a slice joins a plan however small, with a log size ratio. */
  private static final int MAX_LOG_FILES = 4;

  /** Logs a latest slice may hold when plans come every 2 delta commits and may be skipped. */
  private static final int MAX_LOGS_PER_SLICE = 12;

  /** How long each base file waits before it is created, where compaction is made slow. */
  private static final long SLOW_BASE_FILE_MILLIS = 8_000;

  @RegisterExtension static final MiniClusterExtension MINI_CLUSTER = MiniClusters.withSlots(4);

  @TempDir Path dir;

  static Stream<Arguments> jobs() {
    return Stream.of(
        Arguments.of("datastream", true, true, LogBlockFormat.AVRO, 0.0),
        Arguments.of("sql", false, false, LogBlockFormat.PARQUET, 0.0),
        Arguments.of("sql", true, true, LogBlockFormat.AVRO, 1.0));
  }

  @ParameterizedTest(name = "{0} partitioned={1} ordering={2} {3} log-size-ratio={4}")
  @MethodSource("jobs")
  void compactsInTheJobAndHudiAcceptsTheResult(
      String api, boolean partitioned, boolean ordering, LogBlockFormat format, double logSizeRatio)
      throws Exception {
    long seed = Seeds.seed("CompactionITCase");
    LOG.info(
        "seed {} for {} partitioned={} ordering={} {}", seed, api, partitioned, ordering, format);
    SinkJob job =
        SinkJob.at(dir.resolve("t").toUri().toString())
            .parallelism(2)
            .partitioned(partitioned)
            .ordering(ordering)
            .format(format)
            .buckets(2)
            .perCheckpoint(60)
            .compactEvery(2)
            .compactBySize(logSizeRatio, MAX_LOG_FILES)
            .build();
    Changelog all = Changelog.random(seed, 1800, 200, 100, 30).withoutStaleChangesAfterDeletes();
    Changelog first = all.slice(0, 1000);
    Changelog uncompacted = all.slice(1000, 1200);
    Changelog second = all.slice(1200, 1800);

    run(job, api, first);
    TableLayout afterFirst = TableLayout.read(job.path());
    LOG.info("after the first job: {}", afterFirst);
    assertThat(afterFirst.completedCompactions).as("seed %s", seed).isGreaterThanOrEqualTo(3);
    afterFirst.check(seed);
    job.verify(first);
    job.verifyNothingUncommittedLeft();

    run(job.toBuilder().compactEvery(0).build(), api, uncompacted);
    assertThat(HudiClient.scheduleAndCompact(job.path()).isPresent())
        .as("Hudi schedules a compaction of the logs a job without compaction left, seed %s", seed)
        .isTrue();
    assertThat(HudiClient.cleanToLatestVersion(job.path()))
        .as("files Hudi's clean deletes, seed %s", seed)
        .isPositive();
    job.verify(first.followedBy(uncompacted));

    run(job, api, second);
    TableLayout afterSecond = TableLayout.read(job.path());
    LOG.info("after the second job: {}", afterSecond);
    afterSecond.check(seed);
    assertThat(afterSecond.completedCompactions).isGreaterThan(afterFirst.completedCompactions + 1);
    job.verify(all);
    job.verifyNothingUncommittedLeft();
  }

  /**
   * A bounded job that wrote no plan while it ran (here: its rows all in the commit at its end)
   * plans at its end when a compaction is due and waits for it, so a batch job gets compacted.
   */
  @Test
  void aJobThatPlannedNothingWhileItRanCompactsAtItsEnd() throws Exception {
    long seed = Seeds.seed("CompactionITCase.atEnd");
    SinkJob job =
        SinkJob.at(dir.resolve("end").toUri().toString())
            .parallelism(2)
            .buckets(2)
            .perCheckpoint(Integer.MAX_VALUE)
            .compactEvery(1)
            .build();
    Changelog changes = Changelog.random(seed, 400, 150, 100, 30).withoutStaleChangesAfterDeletes();

    job.runDataStream(changes);
    TableLayout layout = TableLayout.read(job.path());
    LOG.info("after the job: {}", layout);
    layout.check(seed);
    assertThat(layout.completedCompactions).as("seed %s", seed).isPositive();
    assertThat(layout.baseInstantsByGroup).as("seed %s", seed).isNotEmpty();
    layout
        .logCommitsByGroup
        .keySet()
        .forEach(
            group ->
                assertThat(layout.logsInLatestSlice(group))
                    .as("logs left in the latest slice of %s, seed %s", group, seed)
                    .isZero());
    job.verify(changes);
  }

  /**
   * A bounded job whose input ends while a compaction it planned runs does not wait for it: each
   * base file here takes {@link #SLOW_BASE_FILE_MILLIS}, so the first plan (4 file groups on 2
   * tasks) cannot finish before the input does. The job ends with no plan pending and no base file
   * left: the plan was unscheduled. Hudi's own client then plans and compacts the same slices, and
   * a second Mortar job compacts on top; the read stays exact.
   */
  @Test
  void aJobWhoseInputEndsDuringACompactionUnschedulesItAndEnds() throws Exception {
    long seed = Seeds.seed("CompactionITCase.abandoned");
    SinkJob job =
        SinkJob.at(dir.resolve("abandoned").toUri().toString())
            .parallelism(2)
            .buckets(4)
            .perCheckpoint(40)
            .compactEvery(2)
            .compactBySize(0, MAX_LOG_FILES)
            .build();
    Changelog all = Changelog.random(seed, 1200, 200, 100, 30).withoutStaleChangesAfterDeletes();
    Changelog first = all.slice(0, 600);
    Changelog second = all.slice(600, 1200);
    Path timeline = Path.of(URI.create(job.path())).resolve(".hoodie/timeline");
    AtomicBoolean planned = new AtomicBoolean();
    ScheduledExecutorService watcher = Executors.newSingleThreadScheduledExecutor();
    watcher.scheduleWithFixedDelay(
        () -> planned.compareAndSet(false, hasPlan(timeline)), 0, 20, TimeUnit.MILLISECONDS);
    FaultyLocalFileSystem.slowBaseFiles(SLOW_BASE_FILE_MILLIS);
    try {
      job.runDataStream(first);
    } finally {
      FaultyLocalFileSystem.slowBaseFiles(0);
      watcher.shutdownNow();
    }
    TableLayout afterFirst = TableLayout.read(job.path());
    LOG.info("after the first job: {}", afterFirst);
    assertThat(planned).as("a plan was written while the job ran, seed %s", seed).isTrue();
    assertThat(afterFirst.requestedCompactions).as("plans left, seed %s", seed).isZero();
    assertThat(afterFirst.baseInstantsByGroup).as("base files left, seed %s", seed).isEmpty();
    job.verify(first);
    job.verifyNothingUncommittedLeft();

    assertThat(HudiClient.scheduleAndCompact(job.path()).isPresent())
        .as("Hudi plans the slices of the unscheduled plan, seed %s", seed)
        .isTrue();
    job.verify(first);

    job.runDataStream(second);
    TableLayout afterSecond = TableLayout.read(job.path());
    LOG.info("after the second job: {}", afterSecond);
    afterSecond.check(seed);
    assertThat(afterSecond.completedCompactions).isGreaterThan(1);
    job.verify(all);
    job.verifyNothingUncommittedLeft();
  }

  private static boolean hasPlan(Path timeline) {
    try (Stream<Path> files = Files.list(timeline)) {
      return files.anyMatch(file -> file.toString().endsWith(".compaction.requested"));
    } catch (IOException e) {
      return false;
    }
  }

  private static void run(SinkJob job, String api, Changelog changelog) throws Exception {
    if (api.equals("sql")) {
      job.runSql(changelog);
    } else {
      job.runDataStream(changelog);
    }
  }

  /**
   * The table's timeline and files: compactions requested and completed, and per file group its
   * base files by instant and its logs by delta commit.
   */
  private record TableLayout(
      int requestedCompactions,
      int completedCompactions,
      Map<String, String> commitCompletions,
      Map<String, String> deltaCommitCompletions,
      Map<String, List<String>> baseInstantsByGroup,
      Map<String, List<String>> logCommitsByGroup) {

    static TableLayout read(String path) throws IOException {
      Path base = Path.of(URI.create(path));
      int requested = 0;
      Map<String, String> commits = new TreeMap<>();
      Map<String, String> deltaCommits = new HashMap<>();
      try (Stream<Path> files = Files.list(base.resolve(".hoodie/timeline"))) {
        for (Path file : files.toList()) {
          String name = file.getFileName().toString();
          if (!Character.isDigit(name.charAt(0))) {
            continue;
          }
          String times = name.substring(0, name.indexOf('.'));
          if (name.endsWith(".compaction.requested")) {
            requested++;
          } else if (name.endsWith(".commit")) {
            commits.put(times.substring(0, 17), times.substring(18));
          } else if (name.endsWith(".deltacommit") && times.contains("_")) {
            deltaCommits.put(times.substring(0, 17), times.substring(18));
          }
        }
      }
      Map<String, List<String>> bases = new TreeMap<>();
      Map<String, List<String>> logs = new TreeMap<>();
      try (Stream<Path> files = Files.walk(base)) {
        for (Path file : files.filter(Files::isRegularFile).toList()) {
          String partition = base.relativize(file.getParent()).toString();
          String name = file.getFileName().toString();
          if (partition.startsWith(".hoodie") || name.endsWith(".crc")) {
            continue;
          }
          if (name.contains(".log.")) {
            String fileId = name.substring(1, name.indexOf('_'));
            String commit = name.substring(name.indexOf('_') + 1, name.indexOf(".log."));
            logs.computeIfAbsent(partition + "/" + fileId, g -> new ArrayList<>()).add(commit);
          } else if (name.endsWith(".parquet")) {
            String fileId = name.substring(0, name.indexOf('_'));
            String instant = name.substring(name.lastIndexOf('_') + 1, name.length() - 8);
            bases.computeIfAbsent(partition + "/" + fileId, g -> new ArrayList<>()).add(instant);
          }
        }
      }
      return new TableLayout(requested, commits.size(), commits, deltaCommits, bases, logs);
    }

    /**
     * No compaction pending, every base file of a completed compaction and one per instant, and
     * every latest slice with at most {@link #MAX_LOGS_PER_SLICE} logs.
     */
    void check(long seed) {
      assertThat(requestedCompactions)
          .as("pending compactions, seed %s", seed)
          .isEqualTo(completedCompactions);
      baseInstantsByGroup.forEach(
          (group, instants) -> {
            assertThat(commitCompletions.keySet())
                .as("base files of %s belong to completed compactions, seed %s", group, seed)
                .containsAll(instants);
            assertThat(instants)
                .as("one base file per compaction of %s", group)
                .doesNotHaveDuplicates();
          });
      logCommitsByGroup
          .keySet()
          .forEach(
              group ->
                  assertThat(logsInLatestSlice(group))
                      .as("logs in the latest slice of %s, seed %s", group, seed)
                      .isLessThanOrEqualTo(MAX_LOGS_PER_SLICE));
    }

    /** The logs of {@code group} whose delta commits completed after its newest base file. */
    long logsInLatestSlice(String group) {
      String latestBase =
          baseInstantsByGroup.getOrDefault(group, List.of()).stream()
              .max(String::compareTo)
              .orElse("0");
      return logCommitsByGroup.get(group).stream()
          .filter(c -> deltaCommitCompletions.getOrDefault(c, "0").compareTo(latestBase) >= 0)
          .count();
    }

    @Override
    public String toString() {
      return completedCompactions
          + " compaction(s), base files per group "
          + baseInstantsByGroup.values().stream().mapToInt(List::size).summaryStatistics()
          + ", logs per group "
          + logCommitsByGroup.values().stream().mapToInt(List::size).summaryStatistics();
    }
  }
}
