package dev.mortar.writer.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mortar.testing.Seeds;
import dev.mortar.writer.compaction.LogFile;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A table streamed for hundreds of checkpoints with every table service on at small values:
 * compaction every 2 delta commits, cleaning that keeps {@value #RETAIN_COMMITS} commits, archival
 * beyond {@value #ARCHIVE_MAX_COMMITS}. While the job runs, Hudi's reader reads the table again and
 * again the way a snapshot query does (a pending compaction's slice merged with the one before it),
 * and each read must equal the expected rows after some checkpoint, later reads after later
 * checkpoints; the files on disk, the logs of a file group and the active timeline stay under
 * bounds that do not grow with the job's length. A second job lets slices gather more logs than the
 * archiver keeps commits, so that logs of archived delta commits are read, planned and cleaned.
 */
class LongRunningTableITCase {
  private static final Logger LOG = LoggerFactory.getLogger(LongRunningTableITCase.class);

  private static final int CHANGES = 4000;
  private static final int PER_CHECKPOINT = 20;
  private static final int RETAIN_COMMITS = 6;
  private static final int ARCHIVE_MAX_COMMITS = 12;
  private static final int BUCKETS = 2;
  private static final int PARTITIONS = 3;

  /**
   * The checkpoint interval: long enough that a read by Hudi's reader (about a second on a fast
   * host, several on a slow one or over two dozen logs per file group) spans fewer commits than the
   * cleaner retains, so that most reads are not outrun by it.
   */
  private static final long CHECKPOINT_MILLIS = 500;

  /**
   * Data files per file group: the slices the cleaner retains (a base file and its logs each) plus
   * the logs written while the next clean waits for the next compaction.
   */
  private static final int MOST_DATA_FILES = BUCKETS * PARTITIONS * 24;

  /** Logs a file group holds on disk: those of the retained slices and of the newest. */
  private static final int MOST_LOGS_PER_FILE_GROUP = 20;

  /**
   * Active timeline files: up to three per instant of the {@value #ARCHIVE_MAX_COMMITS} commits the
   * archiver keeps, the cleans between them, and the instants completed while an archival runs.
   */
  private static final int MOST_TIMELINE_FILES = 3 * 3 * ARCHIVE_MAX_COMMITS;

  /** A log file count at which a slice joins a plan, beyond the commits the archiver keeps. */
  private static final int LOGS_BEYOND_ARCHIVAL = 2 * ARCHIVE_MAX_COMMITS;

  @RegisterExtension static final MiniClusterExtension MINI_CLUSTER = MiniClusters.withSlots(4);

  @TempDir Path dir;

  @Test
  void readsExactAndStaysBoundedWhileRowsFlow() throws Exception {
    long seed = Seeds.seed("LongRunningTableITCase");
    LOG.info("seed {}", seed);
    SinkJob job = streamedJob().build();
    Changelog changelog =
        Changelog.random(seed, CHANGES, 400, 100, 30).withoutStaleChangesAfterDeletes();

    int prefix = readWhileRunning(job, changelog, seed, true);
    assertThat(prefix).as("the last read's change, seed %s", seed).isGreaterThan(CHANGES / 2);
    job.verify(changelog);
    job.verifyNothingUncommittedLeft();
  }

  /**
   * With a log size threshold that lets a slice gather more logs than the active timeline keeps
   * commits, slices hold logs of archived delta commits: the planner, the cleaner, Hudi's reader
   * and Hudi's own compactor must all take them as committed.
   */
  @Test
  void logsOfArchivedDeltaCommitsStayInTheirSlices() throws Exception {
    long seed = Seeds.seed("LongRunningTableITCase.archivedLogs");
    LOG.info("seed {}", seed);
    SinkJob job = streamedJob().compactBySize(100, LOGS_BEYOND_ARCHIVAL).build();
    Changelog changelog =
        Changelog.random(seed, CHANGES, 400, 100, 30).withoutStaleChangesAfterDeletes();

    int prefix = readWhileRunning(job, changelog, seed, false);

    assertThat(prefix).as("the last read's change, seed %s", seed).isGreaterThan(CHANGES / 2);
    assertThat(logsOlderThanTheActiveTimeline(job.path()))
        .as("logs of archived delta commits at the end, seed %s", seed)
        .isPositive();
    job.verify(changelog);
    job.verifyNothingUncommittedLeft();
    assertThat(HudiClient.scheduleAndCompact(job.path()).isPresent())
        .as("Hudi's compaction of the slices, seed %s", seed)
        .isTrue();
    job.verify(changelog);
  }

  /**
   * A partitioned job with event time ordering and every service at this class's small values,
   * compaction every 2 delta commits.
   */
  private SinkJob.Builder streamedJob() {
    return SinkJob.at(dir.resolve("t").toUri().toString())
        .parallelism(2)
        .partitioned(true)
        .ordering(true)
        .buckets(BUCKETS)
        .perCheckpoint(PER_CHECKPOINT)
        .checkpointEvery(CHECKPOINT_MILLIS)
        .compactEvery(2)
        .cleanRetainCommits(RETAIN_COMMITS)
        .archiveBeyond(ARCHIVE_MAX_COMMITS);
  }

  /**
   * Runs the job while Hudi's reader reads the table every 300 ms; each read must equal the rows
   * after a checkpoint no earlier than the last read's (and, with {@code bounded}, the files stay
   * under this class's bounds), unless a clean completed while it ran (see {@link TableWatcher}):
   * such reads are counted as outrun, and most reads must be exact. Returns the change the last
   * read matched.
   */
  private static int readWhileRunning(SinkJob job, Changelog changelog, long seed, boolean bounded)
      throws Exception {
    List<TableWatcher.Read> reads;
    long started = System.nanoTime();
    int outrun;
    try (TableWatcher watcher = TableWatcher.start(job.path(), 300)) {
      job.runDataStream(changelog);
      reads = watcher.reads();
      outrun = watcher.outrunReads();
    }
    LOG.info(
        "{} changes in {} ms, {} reads while the job ran, {} outrun by the cleaner",
        CHANGES,
        (System.nanoTime() - started) / 1_000_000,
        reads.size(),
        outrun);
    assertThat(reads).as("reads while the job ran, seed %s", seed).hasSizeGreaterThan(10);

    int prefix = 0;
    for (int i = 0; i < reads.size(); i++) {
      TableWatcher.Read read = reads.get(i);
      int matched = changelog.prefixMatching(read.nameByKey(), prefix, true);
      LOG.info(
          "read {}: {} keys, after change {}, {}, a clean completed meanwhile: {}",
          i,
          read.nameByKey().size(),
          matched,
          read.files(),
          read.cleanedWhileReading());
      if (matched < 0 && read.cleanedWhileReading()) {
        outrun++;
      } else {
        assertThat(matched)
            .as(
                "read %s equals the rows after a checkpoint at or after change %s, seed %s (%s)",
                i,
                prefix,
                seed,
                matched < 0 ? changelog.closestPrefix(read.nameByKey(), prefix, true) : "")
            .isNotNegative();
        prefix = matched;
      }
      if (!bounded) {
        continue;
      }
      TableWatcher.TableFiles files = read.files();
      assertThat(files.dataFiles())
          .as("data files at read %s, seed %s", i, seed)
          .isLessThanOrEqualTo(MOST_DATA_FILES);
      assertThat(files.mostLogsPerFileGroup())
          .as("logs of one file group at read %s, seed %s", i, seed)
          .isLessThanOrEqualTo(MOST_LOGS_PER_FILE_GROUP);
      assertThat(files.activeTimelineFiles())
          .as("active timeline files at read %s, seed %s", i, seed)
          .isLessThanOrEqualTo(MOST_TIMELINE_FILES);
    }
    assertThat(outrun)
        .as("reads outrun by the cleaner of %s, seed %s", reads.size(), seed)
        .isLessThan(reads.size() / 2);
    return prefix;
  }

  /**
   * Log files whose delta commit is older than every delta commit and commit of the active timeline
   * (by requested time).
   */
  private static long logsOlderThanTheActiveTimeline(String path) throws IOException {
    Path root = Path.of(URI.create(path));
    String oldestActive;
    try (Stream<Path> timeline = Files.list(root.resolve(".hoodie/timeline"))) {
      oldestActive =
          timeline
              .map(file -> file.getFileName().toString())
              .filter(name -> name.matches("\\d+(_\\d+)?\\.(deltacommit|commit)(\\..*)?"))
              .map(name -> name.substring(0, name.indexOf(name.contains("_") ? '_' : '.')))
              .min(String::compareTo)
              .orElseThrow();
    }
    try (Stream<Path> files = Files.walk(root)) {
      return files
          .flatMap(file -> LogFile.parse(file.getFileName().toString(), 0).stream())
          .filter(log -> log.deltaCommit().compareTo(oldestActive) < 0)
          .count();
    }
  }
}
