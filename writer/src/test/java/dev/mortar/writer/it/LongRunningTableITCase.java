package dev.mortar.writer.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mortar.testing.Seeds;
import java.nio.file.Path;
import java.util.List;
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
 * bounds that do not grow with the job's length.
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

  @RegisterExtension static final MiniClusterExtension MINI_CLUSTER = MiniClusters.withSlots(4);

  @TempDir Path dir;

  @Test
  void readsExactAndStaysBoundedWhileRowsFlow() throws Exception {
    long seed = Seeds.seed("LongRunningTableITCase");
    LOG.info("seed {}", seed);
    SinkJob job =
        SinkJob.at(dir.resolve("t").toUri().toString())
            .parallelism(2)
            .partitioned(true)
            .ordering(true)
            .buckets(BUCKETS)
            .perCheckpoint(PER_CHECKPOINT)
            .compactEvery(2)
            .cleanRetainCommits(RETAIN_COMMITS)
            .archiveBeyond(ARCHIVE_MAX_COMMITS)
            .build();
    Changelog changelog =
        Changelog.random(seed, CHANGES, 400, 100, 30).withoutStaleChangesAfterDeletes();

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
    assertThat(outrun).as("reads outrun by the cleaner, seed %s", seed).isLessThan(reads.size());

    int prefix = 0;
    for (int i = 0; i < reads.size(); i++) {
      TableWatcher.Read read = reads.get(i);
      int matched = changelog.prefixMatching(read.nameByKey(), prefix, true);
      LOG.info(
          "read {}: {} keys, after change {}, {}",
          i,
          read.nameByKey().size(),
          matched,
          read.files());
      assertThat(matched)
          .as(
              "read %s equals the rows after a checkpoint at or after change %s, seed %s",
              i, prefix, seed)
          .isNotNegative();
      prefix = matched;
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
    assertThat(prefix).as("the last read's change, seed %s", seed).isGreaterThan(CHANGES / 2);
    job.verify(changelog);
    job.verifyNothingUncommittedLeft();
  }
}
