package dev.mortar.writer.compaction;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PendingCompactionsTest {
  private static final String PENDING = "20261126100000000";

  @TempDir Path timeline;

  @Test
  void readsThePendingPlansOfTheSnapshot() throws Exception {
    FileSystem fs = FileSystem.getLocal(new Configuration());
    writePlan();
    TimelineSnapshot snapshot = TimelineSnapshot.read(fs, timelineDir());

    assertThat(PendingCompactions.operations(fs, timelineDir(), snapshot))
        .hasValueSatisfying(tasks -> assertThat(tasks).isEmpty());
  }

  @Test
  void aPlanArchivedAfterTheListingMakesTheSnapshotStale() throws Exception {
    FileSystem fs = FileSystem.getLocal(new Configuration());
    writePlan();
    TimelineSnapshot snapshot = TimelineSnapshot.read(fs, timelineDir());
    Files.delete(timeline.resolve(PENDING + ".compaction.requested"));

    assertThat(PendingCompactions.operations(fs, timelineDir(), snapshot)).isEmpty();
  }

  private void writePlan() throws Exception {
    Files.write(
        timeline.resolve(PENDING + ".compaction.requested"), CompactionPlanFile.write(List.of()));
  }

  private org.apache.hadoop.fs.Path timelineDir() {
    return new org.apache.hadoop.fs.Path(timeline.toUri());
  }
}
