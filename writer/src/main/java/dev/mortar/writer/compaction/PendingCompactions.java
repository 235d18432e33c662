package dev.mortar.writer.compaction;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The operations of the compaction plans pending on a timeline, read from their {@code
 * C.compaction.requested} files: which file groups are being compacted, and from which slice.
 */
public final class PendingCompactions {
  private static final String REQUESTED = ".compaction.requested";

  private PendingCompactions() {}

  /**
   * Every operation of every plan that {@code snapshot} shows pending; empty if a plan's file is
   * gone since the snapshot was listed. A plan file is only ever removed by the archiver, after its
   * compaction completed: the snapshot is then stale (its slicing does not know the new base files)
   * and the caller must not act on it, but list the timeline again later.
   */
  public static Optional<List<CompactionTask>> operations(
      FileSystem fs, Path timelineDir, TimelineSnapshot snapshot) {
    List<CompactionTask> operations = new ArrayList<>();
    for (String pending : snapshot.pendingCompactions()) {
      Path plan = new Path(timelineDir, pending + REQUESTED);
      try (InputStream in = fs.open(plan)) {
        operations.addAll(CompactionPlanFile.tasks(pending, in));
      } catch (FileNotFoundException archivedSinceListed) {
        return Optional.empty();
      } catch (IOException | RuntimeException e) {
        throw new IllegalStateException(
            "cannot read pending compaction plan " + plan + " (an Avro HoodieCompactionPlan)", e);
      }
    }
    return Optional.of(operations);
  }
}
