package dev.mortar.writer.clean;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mortar.writer.compaction.BaseFile;
import dev.mortar.writer.compaction.CompactionTask;
import dev.mortar.writer.compaction.FileGroupFiles;
import dev.mortar.writer.compaction.FileGroupId;
import dev.mortar.writer.compaction.LogFile;
import dev.mortar.writer.compaction.TimelineSnapshot;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;

/**
 * The KEEP_LATEST_COMMITS rule on a hand-made timeline. Times are {@code 20261126120000} plus three
 * digits of milliseconds. One file group, {@code dt=1/gggg}, has three slices:
 *
 * <pre>
 *   slice 100  logs of dc100, dc200 (completed 110, 210)          no base file
 *   slice 300  base of compaction 300, logs of dc320, dc340
 *   slice 400  base of compaction 400, logs of dc420 and dc390:
 *              dc390 was requested before compaction 400 and completed after it (405)
 * </pre>
 *
 * Completed, by requested time: 100 200 300 320 340 390 400 420. One case archives everything
 * before 420 and gives the archive's completion times.
 */
class CleanPlannerTest {
  private static final FileGroupId GROUP = new FileGroupId("dt=1", "gggg");
  private static final String CLEAN = t(900);

  private static String t(int millis) {
    return String.format("20261126120000%03d", millis);
  }

  private static List<String> timeline() {
    List<String> files = new ArrayList<>();
    deltaCommit(files, 100, 110);
    deltaCommit(files, 200, 210);
    compaction(files, 300, 310);
    deltaCommit(files, 320, 330);
    deltaCommit(files, 340, 350);
    deltaCommit(files, 390, 405);
    compaction(files, 400, 402);
    deltaCommit(files, 420, 430);
    return files;
  }

  private static void deltaCommit(List<String> files, int requested, int completed) {
    files.add(t(requested) + ".deltacommit.requested");
    files.add(t(requested) + ".deltacommit.inflight");
    files.add(t(requested) + "_" + t(completed) + ".deltacommit");
  }

  private static void compaction(List<String> files, int requested, int completed) {
    files.add(t(requested) + ".compaction.requested");
    files.add(t(requested) + ".compaction.inflight");
    files.add(t(requested) + "_" + t(completed) + ".commit");
  }

  private static String log(int deltaCommit) {
    return ".gggg_" + t(deltaCommit) + ".log.1_0-1-0";
  }

  private static String base(int instant) {
    return "gggg_0-0-0_" + t(instant) + ".parquet";
  }

  private static Map<FileGroupId, FileGroupFiles> files() {
    FileGroupFiles group = FileGroupFiles.empty();
    for (int deltaCommit : new int[] {420, 100, 390, 200, 340, 320}) {
      group.logFiles().add(LogFile.parse(log(deltaCommit), 100).orElseThrow());
    }
    group.baseFiles().add(BaseFile.parse(base(300), 1000).orElseThrow());
    group.baseFiles().add(BaseFile.parse(base(400), 1000).orElseThrow());
    group.baseFiles().add(BaseFile.parse(base(500), 1000).orElseThrow());
    return new TreeMap<>(Map.of(GROUP, group));
  }

  private static Optional<CleanPlan> plan(int retain, List<String> timeline) {
    return plan(retain, timeline, List.of());
  }

  private static Optional<CleanPlan> plan(
      int retain, List<String> timeline, List<CompactionTask> pendingCompactions) {
    return CleanPlanner.plan(
        CLEAN, retain, TimelineSnapshot.of(timeline), files(), pendingCompactions);
  }

  @Test
  void retainingOneCommitKeepsOnlyTheNewestSliceWithTheLogThatCompletedAfterItsCompaction() {
    CleanPlan plan = plan(1, timeline()).orElseThrow();

    assertThat(plan.earliestInstantToRetain()).isEqualTo(t(420));
    assertThat(plan.earliestInstantAction()).isEqualTo("deltacommit");
    assertThat(plan.lastCompletedCommit()).isEqualTo(t(420));
    assertThat(plan.filesByPartition())
        .as("dc390's log is named before compaction 400 but belongs to its slice: kept")
        .containsOnlyKeys("dt=1");
    assertThat(plan.filesByPartition().get("dt=1"))
        .containsExactlyInAnyOrder(base(300), log(320), log(340), log(100), log(200));
  }

  @Test
  void retainingTwoCommitsKeepsTheNewestSliceBeforeTheEarliestRetainedInstant() {
    CleanPlan plan = plan(2, timeline()).orElseThrow();

    assertThat(plan.earliestInstantToRetain()).isEqualTo(t(400));
    assertThat(plan.earliestInstantAction()).isEqualTo("commit");
    assertThat(plan.filesByPartition().get("dt=1"))
        .as("slice 300 is the newest before E = 400: kept; only slice 100 goes")
        .containsExactlyInAnyOrder(log(100), log(200));
  }

  @Test
  void aLogOfAnArchivedDeltaCommitStaysInTheSliceOfTheCompactionItOverlapped() {
    List<String> active = new ArrayList<>();
    deltaCommit(active, 420, 430);
    deltaCommit(active, 440, 450);
    deltaCommit(active, 460, 470);
    Map<String, String> archived =
        Map.of(t(100), t(110), t(200), t(210), t(320), t(330), t(340), t(350), t(390), t(405));

    CleanPlan plan =
        CleanPlanner.plan(CLEAN, 1, TimelineSnapshot.of(active, archived::get), files(), List.of())
            .orElseThrow();

    assertThat(plan.earliestInstantToRetain()).isEqualTo(t(460));
    assertThat(plan.filesByPartition().get("dt=1"))
        .as("dc390 and compaction 400 are archived; the archive says dc390 completed at 405")
        .containsExactlyInAnyOrder(base(300), log(320), log(340), log(100), log(200));
  }

  @Test
  void nothingIsPlannedWhenTheNewestSliceBeforeTheRetainedInstantIsTheOldest() {
    assertThat(plan(6, timeline())).as("E = 300: slice 100 is the newest before it").isEmpty();
    assertThat(plan(8, timeline())).as("8 completed instants, 8 retained").isEmpty();
  }

  @Test
  void aPendingWriteCapsTheEarliestRetainedInstant() {
    List<String> timeline = timeline();
    timeline.add(t(410) + ".deltacommit.requested");
    timeline.add(t(410) + ".deltacommit.inflight");

    CleanPlan plan = plan(1, timeline).orElseThrow();

    assertThat(plan.earliestInstantToRetain())
        .as("the newest completed instant before the pending dc410")
        .isEqualTo(t(400));
    assertThat(plan.filesByPartition().get("dt=1")).containsExactlyInAnyOrder(log(100), log(200));
  }

  @Test
  void aSliceThatAPendingCompactionCompactsIsKept() {
    List<String> timeline = timeline();
    timeline.add(t(600) + ".compaction.requested");
    CompactionTask compactsSlice300 =
        new CompactionTask(t(600), 1, GROUP, t(300), base(300), List.of(log(320), log(340)), false);

    CleanPlan plan = plan(1, timeline, List.of(compactsSlice300)).orElseThrow();

    assertThat(plan.earliestInstantToRetain()).isEqualTo(t(420));
    assertThat(plan.filesByPartition().get("dt=1"))
        .as("slice 300 is in the plan of compaction 600")
        .containsExactlyInAnyOrder(log(100), log(200));
  }

  @Test
  void thePlanFileReadsBackAsPlanned() throws IOException {
    CleanPlan plan = plan(1, timeline()).orElseThrow();
    byte[] bytes = CleanPlanFile.write(plan, new Path("file:/tables/t"));

    assertThat(CleanPlanFile.read(CLEAN, new ByteArrayInputStream(bytes))).isEqualTo(plan);
  }
}
