package dev.mortar.writer.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.hudi.common.table.HoodieTableMetaClient;
import org.apache.hudi.common.table.timeline.HoodieArchivedTimeline;
import org.apache.hudi.common.table.timeline.HoodieInstant;
import org.apache.hudi.common.table.timeline.HoodieTimeline;

/**
 * The base files of a table on local disk, by compaction instant as relative paths ({@code
 * <partition>/<fileId>_<token>_<C>.parquet}): those on disk, those the completed compaction commits
 * list, and those completed cleans deleted (read with Hudi's timeline).
 */
record BaseFiles(
    Map<String, List<String>> onDisk, Map<String, List<String>> committed, Set<String> cleaned) {

  static BaseFiles read(String path) throws IOException {
    Path base = Path.of(URI.create(path));
    Map<String, List<String>> onDisk = new TreeMap<>();
    try (Stream<Path> files = Files.walk(base)) {
      for (Path file : files.filter(Files::isRegularFile).toList()) {
        String relative = base.relativize(file).toString();
        String name = file.getFileName().toString();
        if (!relative.startsWith(".hoodie") && name.endsWith(".parquet")) {
          String instant = name.substring(name.lastIndexOf('_') + 1, name.indexOf(".parquet"));
          onDisk.computeIfAbsent(instant, i -> new ArrayList<>()).add(relative);
        }
      }
    }
    Map<String, List<String>> committed = new TreeMap<>();
    Set<String> cleaned = new HashSet<>();
    HoodieTableMetaClient metaClient = HudiClient.metaClient(path);
    HoodieArchivedTimeline archived = metaClient.getArchivedTimeline();
    archived.loadCompletedInstantDetailsInMemory();
    for (HoodieTimeline timeline : List.of(archived, metaClient.getActiveTimeline())) {
      committed.putAll(
          HudiClient.writtenPaths(timeline.getCommitTimeline().filterCompletedInstants()));
      addCleaned(timeline.getCleanerTimeline().filterCompletedInstants(), cleaned);
    }
    return new BaseFiles(onDisk, committed, cleaned);
  }

  private static void addCleaned(HoodieTimeline cleans, Set<String> cleaned) throws IOException {
    for (HoodieInstant instant : cleans.getInstants()) {
      cleans
          .readCleanMetadata(instant)
          .getPartitionMetadata()
          .forEach(
              (partition, files) ->
                  files
                      .getSuccessDeleteFiles()
                      .forEach(
                          name ->
                              cleaned.add(partition.isEmpty() ? name : partition + "/" + name)));
    }
  }

  /** At least one compaction completed, and {@link #verifyNoStrayBaseFiles} holds. */
  void verifyOnlyCommittedBaseFiles(String path, String what) {
    assertThat(committed).as("completed compactions, %s", what).isNotEmpty();
    verifyNoStrayBaseFiles(path, what);
  }

  /**
   * No compaction is pending; the base files on disk are exactly those the completed commits list
   * and no completed clean deleted (none of a failed attempt, none of an unfinished compaction);
   * each commit lists one base file per file group; no completed compaction left its markers
   * ({@code .hoodie/.temp/C}).
   */
  void verifyNoStrayBaseFiles(String path, String what) {
    assertThat(HudiClient.pendingCompactions(path)).as("pending compactions, %s", what).isEmpty();
    assertThat(onDisk.keySet())
        .as("instants of the base files on disk are completed compactions, %s", what)
        .isSubsetOf(committed.keySet());
    committed.forEach(
        (instant, paths) -> {
          assertThat(onDisk.getOrDefault(instant, List.of()))
              .as("base files on disk of compaction %s, %s", instant, what)
              .containsExactlyInAnyOrderElementsOf(
                  paths.stream().filter(file -> !cleaned.contains(file)).toList());
          Set<String> fileGroups = new HashSet<>();
          for (String file : paths) {
            String fileGroup = file.substring(0, file.indexOf('_'));
            assertThat(fileGroups.add(fileGroup))
                .as("%s is the only base file of its file group in %s, %s", file, instant, what)
                .isTrue();
          }
          assertThat(Path.of(URI.create(path)).resolve(".hoodie/.temp/" + instant))
              .as("markers of completed compaction %s, %s", instant, what)
              .doesNotExist();
        });
  }
}
