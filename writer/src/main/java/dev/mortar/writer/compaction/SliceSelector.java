package dev.mortar.writer.compaction;

import dev.mortar.writer.options.LogSizeThreshold;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

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
 *   <li>a file group whose latest slice has no such log (a lone base file) is skipped;
 *   <li>a file group whose logs have not reached the {@link LogSizeThreshold} against its base file
 *       is skipped: its logs stay in the slice for a later plan.
 * </ul>
 *
 * The slices are {@link FileSlicing}'s; only base files of completed commits count, one of a
 * pending or failed compaction is ignored.
 */
final class SliceSelector {
  private SliceSelector() {}

  static List<CompactionOperation> select(
      String compactionInstant,
      TimelineSnapshot timeline,
      Map<FileGroupId, FileGroupFiles> files,
      Set<FileGroupId> inPendingPlans,
      LogSizeThreshold threshold) {
    List<CompactionOperation> operations = new ArrayList<>();
    files.forEach(
        (group, groupFiles) -> {
          if (inPendingPlans.contains(group)) {
            return;
          }
          List<FileSlice> slices = FileSlicing.slices(group, groupFiles, timeline, List.of());
          if (slices.isEmpty()) {
            return;
          }
          FileSlice latest = slices.get(0);
          List<LogFile> logs = new ArrayList<>();
          long logBytes = 0;
          for (LogFile log : latest.logFiles()) {
            String completion = timeline.completionOf(log.deltaCommit());
            if (completion != null && completion.compareTo(compactionInstant) < 0) {
              logs.add(log);
              logBytes += log.sizeBytes();
            }
          }
          BaseFile base = latest.baseFile();
          long baseBytes = base == null ? 0 : base.sizeBytes();
          if (logs.isEmpty() || !threshold.isReached(baseBytes, logBytes, logs.size())) {
            return;
          }
          String baseInstant = base == null ? logs.get(0).deltaCommit() : base.instant();
          operations.add(new CompactionOperation(group, baseInstant, base, List.copyOf(logs)));
        });
    return operations;
  }
}
