package dev.mortar.writer.clean;

import dev.mortar.writer.compaction.CompactionTask;
import dev.mortar.writer.compaction.PendingCompactions;
import dev.mortar.writer.compaction.TableFiles;
import dev.mortar.writer.compaction.TimelineSnapshot;
import dev.mortar.writer.table.FileDeletes;
import dev.mortar.writer.table.HudiTable;
import dev.mortar.writer.table.InstantIssuer;
import dev.mortar.writer.table.Timeline;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One clean of a table: first every clean an earlier attempt left pending ({@code
 * T.clean.requested} without {@code T_X.clean}) is finished from its plan, then a new one is
 * planned ({@link CleanPlanner}) and executed:
 *
 * <pre>
 *   T.clean.requested   the plan, published whole (temp file, rename)
 *   T.clean.inflight    empty, before the first delete
 *   delete the planned files, side by side ({@link FileDeletes}); one already gone is fine (an
 *   earlier attempt deleted it)
 *   T_X.clean           the metadata, published whole: the clean is done
 * </pre>
 *
 * Deleting is idempotent and the plan is on disk before the first delete, so a clean that dies at
 * any point is finished by the next run. A plan made from an older listing stays safe to execute
 * later: instants and slices only get newer, and what a plan deletes stays superseded.
 */
final class Cleaner {
  private static final Logger LOG = LoggerFactory.getLogger(Cleaner.class);

  /** What one run deleted. */
  record Deleted(int files, long bytes) {
    Deleted plus(Deleted other) {
      return new Deleted(files + other.files, bytes + other.bytes);
    }
  }

  private final FileSystem fs;
  private final Path basePath;
  private final Timeline timeline;
  private final int retainCommits;

  Cleaner(FileSystem fs, HudiTable table, int retainCommits) {
    this.fs = fs;
    this.basePath = fs.makeQualified(table.basePath());
    this.timeline = table.timeline();
    this.retainCommits = retainCommits;
  }

  /** Finishes the pending cleans, then plans and executes a new one if it deletes anything. */
  Deleted clean() {
    Deleted deleted = new Deleted(0, 0);
    for (String pending : snapshot().pendingCleans()) {
      LOG.info(
          "Finishing clean {} of table {}, left pending by an earlier attempt", pending, basePath);
      deleted = deleted.plus(execute(readPlan(pending)));
    }
    Optional<CleanPlan> plan = plan(timeline.newInstantTime(InstantIssuer.CLEAN_PLANS));
    if (plan.isPresent()) {
      deleted = deleted.plus(execute(plan.get()));
    }
    return deleted;
  }

  private Optional<CleanPlan> plan(String instant) {
    TimelineSnapshot snapshot = snapshot();
    Optional<List<CompactionTask>> pendingCompactions =
        PendingCompactions.operations(fs, timeline.timelineDir(), snapshot);
    if (pendingCompactions.isEmpty()) {
      LOG.info(
          "Not cleaning at {}: a pending compaction completed and was archived while the timeline"
              + " was read; cleaning later",
          instant);
      return Optional.empty();
    }
    Optional<CleanPlan> plan;
    try {
      plan =
          CleanPlanner.plan(
              instant,
              retainCommits,
              snapshot,
              TableFiles.list(fs, basePath),
              pendingCompactions.get());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list the files of table " + basePath, e);
    }
    if (plan.isEmpty()) {
      return plan;
    }
    if (snapshot().hasInstant(instant)) {
      LOG.warn("Not cleaning at {}: another instant has that time; cleaning later", instant);
      return Optional.empty();
    }
    timeline.requestClean(instant, CleanPlanFile.write(plan.get(), basePath));
    return plan;
  }

  private Deleted execute(CleanPlan plan) {
    long startNanos = System.nanoTime();
    timeline.startClean(plan.instant());
    List<Path> planned = new ArrayList<>(plan.fileCount());
    plan.filesByPartition()
        .forEach(
            (partition, names) ->
                names.forEach(name -> planned.add(CleanPlan.file(basePath, partition, name))));
    long[] sizes;
    try {
      sizes = FileDeletes.delete(fs, planned);
    } catch (IOException e) {
      throw new UncheckedIOException("clean " + plan.instant() + " did not finish", e);
    }
    int files = 0;
    long bytes = 0;
    for (long size : sizes) {
      if (size >= 0) {
        files++;
        bytes += size;
      }
    }
    long millis = (System.nanoTime() - startNanos) / 1_000_000;
    timeline.completeClean(plan.instant(), CleanMetadataFile.write(plan, millis));
    LOG.info(
        "Cleaned {} of table {}: {} file(s), {} bytes deleted of {} planned, earliest retained"
            + " instant {}, in {} ms",
        plan.instant(),
        basePath,
        files,
        bytes,
        plan.fileCount(),
        plan.earliestInstantToRetain(),
        millis);
    return new Deleted(files, bytes);
  }

  private CleanPlan readPlan(String instant) {
    Path plan = timeline.cleanPlan(instant);
    try (InputStream in = fs.open(plan)) {
      return CleanPlanFile.read(instant, in);
    } catch (IOException | RuntimeException e) {
      throw new IllegalStateException(
          "cannot read pending cleaner plan " + plan + " (an Avro HoodieCleanerPlan)", e);
    }
  }

  private TimelineSnapshot snapshot() {
    return TimelineSnapshot.read(fs, timeline.timelineDir());
  }
}
