package dev.mortar.writer.compaction;

import dev.mortar.writer.options.CompactionTrigger;
import dev.mortar.writer.options.LogSizeThreshold;
import dev.mortar.writer.table.Timeline;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import javax.annotation.Nullable;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Plans one compaction at an instant {@code C} handed to it: when its {@link CompactionTrigger}
 * says one is due since the newest compaction instant, it lists the table's files, selects the
 * slices whose logs reached the {@link LogSizeThreshold} ({@link SliceSelector}) and publishes
 * {@code C.compaction.requested}. It reads what is pending from the timeline (the plans' own
 * files), never from memory, so a restored job plans no slice twice.
 *
 * <p>It relies on {@code C} having been issued by the committer's clock before any later delta
 * commit completed: then "completed before {@code C}" is settled when {@code C} is issued, and the
 * listing may run later, beside new commits. A plan is not written when another instant file
 * already has the requested time {@code C} (one started by the instant coordinator in the same
 * millisecond); the next attempt takes a new instant.
 */
final class CompactionPlanner {
  private static final Logger LOG = LoggerFactory.getLogger(CompactionPlanner.class);

  private final FileSystem fs;
  private final Path basePath;
  private final Timeline timeline;
  private final CompactionTrigger trigger;
  private final LogSizeThreshold threshold;

  /** The instant of the last attempt that found nothing to plan: delta commits count from it. */
  @Nullable private String lastEmptyAttempt;

  CompactionPlanner(
      FileSystem fs,
      Path basePath,
      Timeline timeline,
      CompactionTrigger trigger,
      LogSizeThreshold threshold) {
    this.fs = fs;
    this.basePath = basePath;
    this.timeline = timeline;
    this.trigger = trigger;
    this.threshold = threshold;
  }

  /** Plans a compaction at {@code instant} if it is due; returns its operations (none if not). */
  List<CompactionOperation> planAt(String instant) {
    TimelineSnapshot snapshot = TimelineSnapshot.read(fs, timeline.timelineDir());
    String countFrom = later(snapshot.latestCompactionBefore(instant), lastEmptyAttempt);
    String since = countFrom != null ? countFrom : snapshot.oldestDeltaCommitCompletion();
    if (!trigger.isDue(snapshot.deltaCommitsCompletedBetween(countFrom, instant), since, instant)) {
      return List.of();
    }
    long startNanos = System.nanoTime();
    Optional<Set<FileGroupId>> inPendingPlans = inPendingPlans(snapshot);
    if (inPendingPlans.isEmpty()) {
      LOG.info(
          "Not planning compaction {}: a pending plan completed and was archived while the"
              + " timeline was read; retrying later",
          instant);
      return List.of();
    }
    List<CompactionOperation> operations;
    try {
      operations =
          SliceSelector.select(
              instant, snapshot, TableFiles.list(fs, basePath), inPendingPlans.get(), threshold);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list the files of table " + basePath, e);
    }
    if (operations.isEmpty()) {
      lastEmptyAttempt = instant;
      return operations;
    }
    if (TimelineSnapshot.read(fs, timeline.timelineDir()).hasInstant(instant)) {
      LOG.warn(
          "Not planning compaction {}: another instant has that time; retrying later", instant);
      return List.of();
    }
    timeline.requestCompaction(instant, CompactionPlanFile.write(operations));
    LOG.info(
        "Scheduled compaction {} of {} file slice(s), {} log file(s), in {} ms",
        instant,
        operations.size(),
        operations.stream().mapToInt(operation -> operation.logFiles().size()).sum(),
        (System.nanoTime() - startNanos) / 1_000_000);
    return operations;
  }

  /** The file groups of the pending plans; empty if the snapshot is stale. */
  private Optional<Set<FileGroupId>> inPendingPlans(TimelineSnapshot snapshot) {
    return PendingCompactions.operations(fs, timeline.timelineDir(), snapshot)
        .map(
            tasks -> {
              Set<FileGroupId> groups = new HashSet<>();
              tasks.forEach(task -> groups.add(task.fileGroup()));
              return groups;
            });
  }

  @Nullable
  private static String later(@Nullable String a, @Nullable String b) {
    if (a == null || b == null) {
      return a == null ? b : a;
    }
    return a.compareTo(b) >= 0 ? a : b;
  }
}
