package dev.mortar.writer.clean;

import java.util.List;
import java.util.SortedMap;
import org.apache.hadoop.fs.Path;

/**
 * What clean {@code instant} deletes, and the retention it was planned under.
 *
 * @param earliestInstantToRetain the oldest completed instant whose readers keep every file ({@code
 *     E}); slices older than the newest one before it are deleted
 * @param earliestInstantAction {@code deltacommit} or {@code commit}
 * @param lastCompletedCommit the requested time of the newest completed (delta) commit
 * @param filesByPartition the names of the files to delete by partition path ({@code ""} when
 *     unpartitioned)
 */
record CleanPlan(
    String instant,
    String earliestInstantToRetain,
    String earliestInstantAction,
    String lastCompletedCommit,
    SortedMap<String, List<String>> filesByPartition) {

  /** The path of file {@code name} of partition {@code partitionPath} below {@code basePath}. */
  static Path file(Path basePath, String partitionPath, String name) {
    return new Path(partitionPath.isEmpty() ? basePath : new Path(basePath, partitionPath), name);
  }

  int fileCount() {
    return filesByPartition.values().stream().mapToInt(List::size).sum();
  }
}
