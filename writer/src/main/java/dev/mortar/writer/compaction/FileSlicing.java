package dev.mortar.writer.compaction;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * Hudi's file slicing at table version 9 (spec "hudi-table-services" §3.1), for one file group. The
 * slices are keyed by the instants of the group's base files of <em>completed</em> commits (a base
 * file of a pending or failed compaction is ignored) and by the instants of pending compactions
 * that cover the group (such a slice may have no base file). A log file joins the slice with the
 * greatest key at or before the completion time of the delta commit that wrote it; a log of a delta
 * commit that is not completed joins the newest slice; a log that completed before every key
 * belongs to the first slice of logs only, keyed by the oldest such log's delta commit.
 */
public final class FileSlicing {
  private FileSlicing() {}

  /**
   * The slices of file group {@code group}, newest first.
   *
   * @param pendingCompactions instants of pending compactions whose plans cover {@code group}
   * @throws IllegalStateException if the group has two base files of one completed commit
   */
  public static List<FileSlice> slices(
      FileGroupId group,
      FileGroupFiles files,
      TimelineSnapshot timeline,
      Collection<String> pendingCompactions) {
    NavigableMap<String, BaseFile> baseFiles = new TreeMap<>();
    for (BaseFile file : files.baseFiles()) {
      if (!timeline.isCompletedCommit(file.instant())) {
        continue;
      }
      BaseFile other = baseFiles.put(file.instant(), file);
      if (other != null) {
        throw new IllegalStateException(
            "file group "
                + group
                + " has two base files of commit "
                + file.instant()
                + ": "
                + other.name()
                + " and "
                + file.name()
                + "; expected one per slice");
      }
    }
    NavigableMap<String, List<LogFile>> logsBySlice = new TreeMap<>();
    baseFiles.keySet().forEach(instant -> logsBySlice.put(instant, new ArrayList<>()));
    pendingCompactions.forEach(instant -> logsBySlice.put(instant, new ArrayList<>()));
    List<LogFile> beforeEverySlice = new ArrayList<>();
    List<LogFile> logs = new ArrayList<>(files.logFiles());
    logs.sort(null);
    for (LogFile log : logs) {
      String completion = timeline.completionOf(log.deltaCommit());
      Map.Entry<String, List<LogFile>> slice =
          completion == null ? logsBySlice.lastEntry() : logsBySlice.floorEntry(completion);
      (slice == null ? beforeEverySlice : slice.getValue()).add(log);
    }
    List<FileSlice> slices = new ArrayList<>();
    logsBySlice
        .descendingMap()
        .forEach(
            (instant, sliceLogs) ->
                slices.add(new FileSlice(instant, baseFiles.get(instant), List.copyOf(sliceLogs))));
    if (!beforeEverySlice.isEmpty()) {
      slices.add(
          new FileSlice(
              beforeEverySlice.get(0).deltaCommit(), null, List.copyOf(beforeEverySlice)));
    }
    return slices;
  }
}
