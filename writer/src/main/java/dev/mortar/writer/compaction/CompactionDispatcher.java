package dev.mortar.writer.compaction;

import dev.mortar.writer.table.Timeline;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands the operations of pending compaction plans to the compaction tasks, on the committer's
 * thread. The timeline is the book: every plan without a completed commit is pending, whoever wrote
 * it and whether an earlier attempt of this job had started it. So after a restore, when whatever
 * was in flight is gone, the first {@link #dispatchPending(boolean)} sends every pending plan
 * again, and the tasks redo their file groups from scratch ({@link FileGroupCompactor}). Within one
 * attempt a plan is sent once. Operations sent with {@code finishAtEnd} are finished by a
 * compaction task whose input ends; the others are abandoned then ({@link CompactOperator}).
 */
public final class CompactionDispatcher {
  private static final Logger LOG = LoggerFactory.getLogger(CompactionDispatcher.class);
  private static final String REQUESTED = ".compaction.requested";

  private final FileSystem fs;
  private final Timeline timeline;
  private final Consumer<CompactionTask> tasks;
  private final Set<String> dispatched = new HashSet<>();

  public CompactionDispatcher(FileSystem fs, Timeline timeline, Consumer<CompactionTask> tasks) {
    this.fs = fs;
    this.timeline = timeline;
    this.tasks = tasks;
  }

  /**
   * Starts every pending plan not sent yet by this attempt ({@code C.compaction.inflight}) and
   * sends its operations, oldest plan first.
   *
   * @param finishAtEnd whether the end of input waits for these operations rather than abandoning
   *     them
   */
  public void dispatchPending(boolean finishAtEnd) {
    TimelineSnapshot snapshot = TimelineSnapshot.read(fs, timeline.timelineDir());
    if (dispatched.isEmpty()) {
      deleteMarkersOfCompleted(snapshot);
    }
    for (String instant : snapshot.pendingCompactions()) {
      if (!dispatched.add(instant)) {
        continue;
      }
      List<CompactionTask> operations = read(instant);
      timeline.startCompaction(instant);
      for (CompactionTask operation : operations) {
        tasks.accept(finishAtEnd ? operation.toFinishAtEnd() : operation);
      }
      LOG.info("Dispatched compaction {}: {} file slice(s)", instant, operations.size());
    }
  }

  /**
   * Deletes the marker folders of completed compactions: an attempt that died between publishing
   * {@code C_X.commit} and deleting {@code .hoodie/.temp/C} left them.
   */
  private void deleteMarkersOfCompleted(TimelineSnapshot snapshot) {
    try {
      Path tempDir = timeline.tempDir();
      if (!fs.exists(tempDir)) {
        return;
      }
      for (FileStatus status : fs.listStatus(tempDir)) {
        String name = status.getPath().getName();
        if (status.isDirectory() && snapshot.isCompletedCommit(name)) {
          LOG.info("Deleting the markers of completed compaction {}", name);
          fs.delete(status.getPath(), true);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete the markers of completed compactions", e);
    }
  }

  private List<CompactionTask> read(String instant) {
    Path plan = new Path(timeline.timelineDir(), instant + REQUESTED);
    try (InputStream in = fs.open(plan)) {
      return CompactionPlanFile.tasks(instant, in);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read compaction plan " + plan, e);
    }
  }
}
