package dev.mortar.writer.compaction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mortar.writer.options.LogSizeThreshold;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The plan selection rule: a plan at {@code C} takes, per file group, exactly the latest slice's
 * logs whose delta commits completed before {@code C}, and never a file group that is in a pending
 * plan, nor one whose logs are small against its base file. Times are {@code 20261126120000} plus
 * three digits of milliseconds.
 */
class SliceSelectorTest {
  private static final FileGroupId LOGS_ONLY = new FileGroupId("dt=1", "aaaa");
  private static final FileGroupId WITH_BASE = new FileGroupId("dt=1", "bbbb");
  private static final FileGroupId COMPACTED = new FileGroupId("", "cccc");

  /** Every slice with logs: the default 'compaction.log-size-ratio' of 0. */
  private static final LogSizeThreshold ANY_LOGS = new LogSizeThreshold(0, 1);

  private static String t(int millis) {
    return String.format("20261126120000%03d", millis);
  }

  /** dc1 and dc2 completed early, compaction t(220) completed, dcLate completes at t(600). */
  private static List<String> timeline() {
    List<String> files = new ArrayList<>();
    completedDeltaCommit(files, 100, 150);
    completedDeltaCommit(files, 200, 250);
    completedDeltaCommit(files, 300, 600);
    files.add(t(400) + ".deltacommit.requested");
    files.add(t(400) + ".deltacommit.inflight");
    files.add(t(220) + ".compaction.requested");
    files.add(t(220) + ".compaction.inflight");
    files.add(t(220) + "_" + t(230) + ".commit");
    return files;
  }

  private static void completedDeltaCommit(List<String> files, int requested, int completed) {
    files.add(t(requested) + ".deltacommit.requested");
    files.add(t(requested) + ".deltacommit.inflight");
    files.add(t(requested) + "_" + t(completed) + ".deltacommit");
  }

  private static LogFile log(FileGroupId group, int deltaCommit, int version, String token) {
    String name = "." + group.fileId() + "_" + t(deltaCommit) + ".log." + version + "_" + token;
    return LogFile.parse(name, 1000 + version).orElseThrow();
  }

  private static BaseFile base(FileGroupId group, int instant) {
    return BaseFile.parse(group.fileId() + "_0-0-0_" + t(instant) + ".parquet", 5000).orElseThrow();
  }

  private static Map<FileGroupId, FileGroupFiles> files() {
    Map<FileGroupId, FileGroupFiles> files = new TreeMap<>();
    FileGroupFiles logsOnly = FileGroupFiles.empty();
    logsOnly.logFiles().add(log(LOGS_ONLY, 400, 1, "0-1-0"));
    logsOnly.logFiles().add(log(LOGS_ONLY, 200, 1, "0-1-0"));
    logsOnly.logFiles().add(log(LOGS_ONLY, 100, 2, "0-1-0"));
    logsOnly.logFiles().add(log(LOGS_ONLY, 300, 1, "0-1-0"));
    logsOnly.logFiles().add(log(LOGS_ONLY, 100, 1, "1-1-0"));
    logsOnly.logFiles().add(log(LOGS_ONLY, 100, 1, "0-1-0"));
    files.put(LOGS_ONLY, logsOnly);
    FileGroupFiles withBase = FileGroupFiles.empty();
    withBase.baseFiles().add(base(WITH_BASE, 220));
    withBase.baseFiles().add(base(WITH_BASE, 260));
    withBase.logFiles().add(log(WITH_BASE, 100, 1, "0-1-0"));
    withBase.logFiles().add(log(WITH_BASE, 200, 1, "0-1-0"));
    withBase.logFiles().add(log(WITH_BASE, 300, 1, "0-1-0"));
    files.put(WITH_BASE, withBase);
    FileGroupFiles compacted = FileGroupFiles.empty();
    compacted.baseFiles().add(base(COMPACTED, 220));
    compacted.logFiles().add(log(COMPACTED, 100, 1, "0-1-0"));
    files.put(COMPACTED, compacted);
    return files;
  }

  @Test
  void takesTheLatestSlicesLogsThatCompletedBeforeThePlan() {
    List<CompactionOperation> plan =
        SliceSelector.select(t(500), TimelineSnapshot.of(timeline()), files(), Set.of(), ANY_LOGS);

    assertThat(plan)
        .extracting(CompactionOperation::fileGroup)
        .containsExactly(LOGS_ONLY, WITH_BASE);
    CompactionOperation logsOnly = plan.get(0);
    assertThat(logsOnly.logFiles())
        .as("completed before C, oldest first; not dcLate (completes after C) nor the pending one")
        .extracting(LogFile::name)
        .containsExactly(
            ".aaaa_" + t(100) + ".log.1_0-1-0",
            ".aaaa_" + t(100) + ".log.1_1-1-0",
            ".aaaa_" + t(100) + ".log.2_0-1-0",
            ".aaaa_" + t(200) + ".log.1_0-1-0");
    assertThat(logsOnly.baseFile()).isNull();
    assertThat(logsOnly.baseInstant()).as("a log-only slice: its oldest log's").isEqualTo(t(100));

    CompactionOperation withBase = plan.get(1);
    assertThat(withBase.baseFile())
        .as("the completed compaction's base file, not the one of an unknown instant")
        .isEqualTo(base(WITH_BASE, 220));
    assertThat(withBase.baseInstant()).isEqualTo(t(220));
    assertThat(withBase.logFiles())
        .as("dc1 completed before the base file's compaction: an older slice")
        .extracting(LogFile::deltaCommit)
        .containsExactly(t(200));
  }

  @Test
  void neverPlansAFileGroupOfAPendingPlanAgain() throws IOException {
    List<String> timeline = timeline();
    List<CompactionOperation> first =
        SliceSelector.select(t(500), TimelineSnapshot.of(timeline), files(), Set.of(), ANY_LOGS);
    timeline.add(t(500) + ".compaction.requested");
    List<CompactionTask> planned =
        CompactionPlanFile.tasks(t(500), new ByteArrayInputStream(CompactionPlanFile.write(first)));
    Set<FileGroupId> pending = new HashSet<>();
    planned.forEach(task -> pending.add(task.fileGroup()));
    assertThat(pending).containsExactlyInAnyOrder(LOGS_ONLY, WITH_BASE);
    assertThat(planned).allSatisfy(task -> assertThat(task.planSize()).isEqualTo(2));
    CompactionTask withBase =
        planned.stream().filter(task -> task.fileGroup().equals(WITH_BASE)).findFirst().get();
    CompactionOperation withBaseOperation =
        first.stream().filter(op -> op.fileGroup().equals(WITH_BASE)).findFirst().get();
    assertThat(withBase.baseFileName()).isEqualTo(withBaseOperation.baseFile().name());
    assertThat(withBase.baseInstant()).isEqualTo(withBaseOperation.baseInstant());
    assertThat(withBase.logFileNames())
        .containsExactlyElementsOf(
            withBaseOperation.logFiles().stream().map(LogFile::name).toList());

    Map<FileGroupId, FileGroupFiles> files = files();
    files.get(COMPACTED).logFiles().add(log(COMPACTED, 300, 1, "0-1-0"));
    List<CompactionOperation> second =
        SliceSelector.select(t(700), TimelineSnapshot.of(timeline), files, pending, ANY_LOGS);

    assertThat(second).extracting(CompactionOperation::fileGroup).containsExactly(COMPACTED);
    assertThat(second.get(0).logFiles())
        .extracting(LogFile::deltaCommit)
        .as("dcLate completed at t(600), before this plan")
        .containsExactly(t(300));
  }

  @Test
  void takesASliceWithABaseFileOnlyOnceItsLogsReachTheThreshold() {
    // WITH_BASE: a 5,000-byte base file and one 1,001-byte log before the plan.
    assertThat(planned(new LogSizeThreshold(0.2002, 20)))
        .as("logs at exactly the ratio")
        .containsExactly(LOGS_ONLY, WITH_BASE);
    assertThat(planned(new LogSizeThreshold(0.2004, 20)))
        .as("logs just under the ratio; a slice without a base file is always taken")
        .containsExactly(LOGS_ONLY);
    assertThat(planned(new LogSizeThreshold(10, 1)))
        .as("as many log files as the limit, however small")
        .containsExactly(LOGS_ONLY, WITH_BASE);
    assertThat(planned(new LogSizeThreshold(10, 2))).containsExactly(LOGS_ONLY);
  }

  @Test
  void rejectsAThresholdNamingItsOption() {
    assertThatThrownBy(() -> new LogSizeThreshold(-0.1, 20))
        .hasMessageContaining("'compaction.log-size-ratio' must be a finite number >= 0");
    assertThatThrownBy(() -> new LogSizeThreshold(Double.NaN, 20))
        .hasMessageContaining("'compaction.log-size-ratio'");
    assertThatThrownBy(() -> new LogSizeThreshold(0.5, 0))
        .hasMessageContaining("'compaction.max-log-files' must be > 0, got 0");
  }

  private static List<FileGroupId> planned(LogSizeThreshold threshold) {
    return SliceSelector.select(
            t(500), TimelineSnapshot.of(timeline()), files(), Set.of(), threshold)
        .stream()
        .map(CompactionOperation::fileGroup)
        .toList();
  }

  @Test
  void failsOnTwoBaseFilesOfOneCommit() {
    Map<FileGroupId, FileGroupFiles> files = files();
    files
        .get(COMPACTED)
        .baseFiles()
        .add(BaseFile.parse("cccc_0-1-0_" + t(220) + ".parquet", 1).orElseThrow());
    assertThatThrownBy(
            () ->
                SliceSelector.select(
                    t(500), TimelineSnapshot.of(timeline()), files, Set.of(), ANY_LOGS))
        .hasMessageContaining("file group cccc has two base files of commit " + t(220))
        .hasMessageContaining("cccc_0-1-0_" + t(220) + ".parquet");
  }

  @Test
  void parsesOnlyLogAndBaseFileNames() {
    assertThat(LogFile.parse("..aaaa_" + t(100) + ".log.1_0-1-0.crc", 1)).isEmpty();
    assertThat(LogFile.parse(".hoodie_partition_metadata", 1)).isEmpty();
    assertThat(BaseFile.parse(".hoodie_partition_metadata", 1)).isEmpty();
    assertThat(BaseFile.parse("aaaa_0-1-0_" + t(5) + ".parquet", 1).orElseThrow())
        .isEqualTo(new BaseFile("aaaa_0-1-0_" + t(5) + ".parquet", "aaaa", t(5), 1));
  }
}
