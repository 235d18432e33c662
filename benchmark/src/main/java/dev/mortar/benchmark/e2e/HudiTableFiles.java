package dev.mortar.benchmark.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * What a Hudi Merge-On-Read table holds on local disk, counted from file names alone: its timeline
 * and its log and base files.
 *
 * <p>Names read: completed instants {@code <requested>_<completed>.deltacommit} and {@code
 * <requested>_<completed>.commit} (a compaction) in {@code .hoodie/timeline}; log files {@code
 * .<fileId>_<deltaCommit>.log.<version>_<token>}; base files {@code
 * <fileId>_<token>_<compaction>.parquet}.
 *
 * <p>A log file is in its file group's latest slice when its delta commit completed at or after the
 * requested time of the group's newest base file (Hudi 1.x slices by completion time), or when the
 * group has no base file.
 *
 * @param deltaCommits completed delta commits in the active timeline (one per checkpoint that wrote
 *     rows; archival moves older ones out)
 * @param compactions completed compactions in the active timeline
 * @param timelineFiles instant files in {@code .hoodie/timeline} (requested, inflight, completed)
 * @param logFiles every log file of the table
 * @param baseFiles every base file of the table
 * @param latestSliceLogFiles the log files a reader of the latest snapshot merges
 */
public record HudiTableFiles(
    long deltaCommits,
    long compactions,
    long timelineFiles,
    long logFiles,
    long baseFiles,
    long latestSliceLogFiles) {

  private static final String LOG_MARKER = ".log.";
  private static final String BASE_SUFFIX = ".parquet";
  private static final int INSTANT_LENGTH = 17;

  /** Counts the files of the table at {@code table}. */
  public static HudiTableFiles count(Path table) throws IOException {
    Map<String, String> deltaCommitCompletions = new HashMap<>();
    long compactions = 0;
    long timelineFiles = 0;
    try (Stream<Path> files = Files.list(table.resolve(".hoodie").resolve("timeline"))) {
      for (String name : files.map(file -> file.getFileName().toString()).toList()) {
        if (name.isEmpty() || !Character.isDigit(name.charAt(0))) {
          continue;
        }
        timelineFiles++;
        if (name.endsWith(".commit")) {
          compactions++;
        } else if (name.endsWith(".deltacommit") && name.charAt(INSTANT_LENGTH) == '_') {
          deltaCommitCompletions.put(
              name.substring(0, INSTANT_LENGTH),
              name.substring(INSTANT_LENGTH + 1, name.indexOf('.')));
        }
      }
    }
    Map<String, String> newestBaseOfGroup = new HashMap<>();
    Map<String, List<String>> logCommitsOfGroup = new HashMap<>();
    long logFiles = 0;
    long baseFiles = 0;
    for (Path file : dataFiles(table)) {
      String group = table.relativize(file.getParent()) + "/";
      String name = file.getFileName().toString();
      if (name.contains(LOG_MARKER)) {
        logFiles++;
        String deltaCommit = name.substring(name.indexOf('_') + 1, name.indexOf(LOG_MARKER));
        logCommitsOfGroup
            .computeIfAbsent(group + name.substring(1, name.indexOf('_')), g -> new ArrayList<>())
            .add(deltaCommit);
      } else if (name.endsWith(BASE_SUFFIX)) {
        baseFiles++;
        String instant =
            name.substring(name.lastIndexOf('_') + 1, name.length() - BASE_SUFFIX.length());
        newestBaseOfGroup.merge(
            group + name.substring(0, name.indexOf('_')),
            instant,
            (a, b) -> a.compareTo(b) >= 0 ? a : b);
      }
    }
    long latestSliceLogFiles = 0;
    for (Map.Entry<String, List<String>> logs : logCommitsOfGroup.entrySet()) {
      String newestBase = newestBaseOfGroup.getOrDefault(logs.getKey(), "");
      latestSliceLogFiles +=
          logs.getValue().stream()
              .filter(
                  commit ->
                      deltaCommitCompletions.getOrDefault(commit, "").compareTo(newestBase) >= 0)
              .count();
    }
    return new HudiTableFiles(
        deltaCommitCompletions.size(),
        compactions,
        timelineFiles,
        logFiles,
        baseFiles,
        latestSliceLogFiles);
  }

  /** The counts by name, for reports. */
  public Map<String, Long> asMap() {
    Map<String, Long> map = new LinkedHashMap<>();
    map.put("active delta commits", deltaCommits);
    map.put("active compactions", compactions);
    map.put("timeline files", timelineFiles);
    map.put("log files", logFiles);
    map.put("base files", baseFiles);
    map.put("logs in latest slices", latestSliceLogFiles);
    return map;
  }

  /** The table's files outside {@code .hoodie}, without checksums and partition metadata. */
  private static List<Path> dataFiles(Path table) throws IOException {
    try (Stream<Path> files = Files.walk(table)) {
      return files
          .filter(Files::isRegularFile)
          .filter(file -> !table.relativize(file).startsWith(".hoodie"))
          .filter(
              file -> {
                String name = file.getFileName().toString();
                return !name.endsWith(".crc") && !name.startsWith(".hoodie_partition_metadata");
              })
          .toList();
    }
  }
}
