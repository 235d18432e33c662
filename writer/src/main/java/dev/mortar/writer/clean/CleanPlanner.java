package dev.mortar.writer.clean;

import dev.mortar.writer.compaction.CompactionTask;
import dev.mortar.writer.compaction.FileGroupFiles;
import dev.mortar.writer.compaction.FileGroupId;
import dev.mortar.writer.compaction.FileSlice;
import dev.mortar.writer.compaction.FileSlicing;
import dev.mortar.writer.compaction.LogFile;
import dev.mortar.writer.compaction.TimelineSnapshot;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import javax.annotation.Nullable;

/**
 * Hudi's KEEP_LATEST_COMMITS cleaning rule with {@code K} retained commits (spec
 * "hudi-table-services" §4.4, Hudi's {@code CleanPlanner} and {@code
 * CleanerUtils.getEarliestCommitToRetain}):
 *
 * <ul>
 *   <li>{@code E}, the earliest instant to retain, is the {@code K}-th newest completed instant of
 *       the commits-and-compaction timeline (delta commits and compaction commits, by requested
 *       time). When a write is pending (a delta commit started, a compaction planned) and {@code E}
 *       is later, {@code E} is the newest completed instant before that write. Nothing is cleaned
 *       while at most {@code K} instants are completed.
 *   <li>Per file group, slicing by completion time ({@link FileSlicing}), the newest slice and the
 *       newest slice with base instant before {@code E} are kept: a reader of any retained instant
 *       reads one of them or a later one.
 *   <li>Every other slice with base instant before {@code E} is deleted, base file and logs, unless
 *       a pending compaction plan compacts it.
 * </ul>
 */
final class CleanPlanner {
  private CleanPlanner() {}

  /**
   * The plan of a clean at {@code instant}, or empty when it would delete nothing.
   *
   * @param pendingCompactions the operations of every pending compaction plan
   */
  static Optional<CleanPlan> plan(
      String instant,
      int retainCommits,
      TimelineSnapshot timeline,
      Map<FileGroupId, FileGroupFiles> files,
      List<CompactionTask> pendingCompactions) {
    NavigableMap<String, String> completed = timeline.completedWrites();
    String earliestToRetain = earliestToRetain(completed, retainCommits, timeline);
    if (earliestToRetain == null) {
      return Optional.empty();
    }
    Map<FileGroupId, Set<String>> planInstants = new HashMap<>();
    Map<FileGroupId, Set<String>> compactedSlices = new HashMap<>();
    for (CompactionTask task : pendingCompactions) {
      planInstants.computeIfAbsent(task.fileGroup(), g -> new HashSet<>()).add(task.instant());
      compactedSlices
          .computeIfAbsent(task.fileGroup(), g -> new HashSet<>())
          .add(task.baseInstant());
    }
    TreeMap<String, List<String>> toDelete = new TreeMap<>();
    files.forEach(
        (group, groupFiles) -> {
          List<FileSlice> slices =
              FileSlicing.slices(
                  group, groupFiles, timeline, planInstants.getOrDefault(group, Set.of()));
          Set<String> compacted = compactedSlices.getOrDefault(group, Set.of());
          for (FileSlice slice : superseded(slices, earliestToRetain)) {
            if (!compacted.contains(slice.baseInstant())) {
              List<String> names =
                  toDelete.computeIfAbsent(group.partitionPath(), p -> new ArrayList<>());
              if (slice.baseFile() != null) {
                names.add(slice.baseFile().name());
              }
              slice.logFiles().stream().map(LogFile::name).forEach(names::add);
            }
          }
        });
    if (toDelete.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        new CleanPlan(
            instant,
            earliestToRetain,
            completed.get(earliestToRetain),
            completed.lastKey(),
            toDelete));
  }

  /** {@code E}, or null when nothing may be cleaned yet. */
  @Nullable
  private static String earliestToRetain(
      NavigableMap<String, String> completed, int retainCommits, TimelineSnapshot timeline) {
    if (completed.size() <= retainCommits) {
      return null;
    }
    String earliest = new ArrayList<>(completed.keySet()).get(completed.size() - retainCommits);
    String pending = timeline.earliestPendingWrite();
    if (pending != null && earliest.compareTo(pending) > 0) {
      return completed.lowerKey(pending);
    }
    return earliest;
  }

  /** The slices (newest first) before {@code E} other than the newest and the newest before it. */
  private static List<FileSlice> superseded(List<FileSlice> slices, String earliestToRetain) {
    List<FileSlice> superseded = new ArrayList<>();
    boolean newestBeforeSeen = false;
    for (FileSlice slice : slices) {
      if (slice.baseInstant().compareTo(earliestToRetain) < 0) {
        if (newestBeforeSeen) {
          superseded.add(slice);
        }
        newestBeforeSeen = true;
      }
    }
    return superseded;
  }
}
