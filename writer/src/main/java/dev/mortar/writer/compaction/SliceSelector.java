package dev.mortar.writer.compaction;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.annotation.Nullable;

/**
 * Which file slices a compaction at instant {@code C} compacts, by Hudi's file slicing at table
 * version 9 (spec "hudi-table-services" §3): a log file belongs to the slice with the greatest base
 * instant at or before the completion time of the delta commit that wrote it. For each file group
 * the plan takes its latest slice with exactly those log files whose delta commits completed before
 * {@code C}:
 *
 * <ul>
 *   <li>a log of a delta commit completed at or after {@code C} (or not completed) is left out: it
 *       belongs to the slice {@code C} opens;
 *   <li>a log that completed before the latest base file's instant is left out: it belongs to an
 *       older slice, already compacted;
 *   <li>a file group that is in a pending compaction is skipped entirely, so no slice is ever in
 *       two plans;
 *   <li>a file group whose latest slice has no such log (a lone base file) is skipped.
 * </ul>
 *
 * Only base files of completed commits count; one of a pending or failed compaction is ignored.
 */
final class SliceSelector {
  private SliceSelector() {}

  static List<CompactionOperation> select(
      String compactionInstant,
      TimelineSnapshot timeline,
      Map<FileGroupId, FileGroupFiles> files,
      Set<FileGroupId> inPendingPlans) {
    List<CompactionOperation> operations = new ArrayList<>();
    files.forEach(
        (group, groupFiles) -> {
          if (inPendingPlans.contains(group)) {
            return;
          }
          BaseFile base =
              latestBaseFile(group, groupFiles.baseFiles(), timeline, compactionInstant);
          List<LogFile> logs = new ArrayList<>();
          for (LogFile log : groupFiles.logFiles()) {
            String completion = timeline.completionOf(log.deltaCommit());
            if (completion != null
                && completion.compareTo(compactionInstant) < 0
                && (base == null || completion.compareTo(base.instant()) >= 0)) {
              logs.add(log);
            }
          }
          if (logs.isEmpty()) {
            return;
          }
          logs.sort(null);
          String baseInstant = base == null ? logs.get(0).deltaCommit() : base.instant();
          operations.add(new CompactionOperation(group, baseInstant, base, List.copyOf(logs)));
        });
    return operations;
  }

  /** The base file of the newest completed commit before {@code compactionInstant}, or null. */
  @Nullable
  private static BaseFile latestBaseFile(
      FileGroupId group, List<BaseFile> baseFiles, TimelineSnapshot timeline, String before) {
    BaseFile latest = null;
    for (BaseFile file : baseFiles) {
      if (!timeline.isCompletedCommit(file.instant()) || file.instant().compareTo(before) >= 0) {
        continue;
      }
      if (latest != null && latest.instant().equals(file.instant())) {
        throw new IllegalStateException(
            "file group "
                + group
                + " has two base files of commit "
                + file.instant()
                + ": "
                + latest.name()
                + " and "
                + file.name()
                + "; expected one per slice");
      }
      if (latest == null || file.instant().compareTo(latest.instant()) > 0) {
        latest = file;
      }
    }
    return latest;
  }
}
