package dev.mortar.benchmark.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.paimon.fs.local.LocalFileIO;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.FileStoreTableFactory;
import org.apache.paimon.table.source.DataSplit;

/**
 * What a Paimon primary-key table holds on local disk: the data files under its {@code bucket-<n>}
 * folders, and from its latest snapshot the live files and their sorted runs (every level-0 file is
 * a run of its own, every higher level one run), which a reader merges.
 *
 * @param dataFiles files under the bucket folders, also those no snapshot refers to any more
 * @param liveDataFiles data files of the latest snapshot
 * @param sortedRuns sorted runs of the latest snapshot, summed over buckets
 * @param maxSortedRunsPerBucket the most sorted runs one bucket holds
 */
public record PaimonTableFiles(
    long dataFiles, long liveDataFiles, long sortedRuns, long maxSortedRunsPerBucket) {

  /** Counts the files of the table at {@code table} (the table's folder in the warehouse). */
  public static PaimonTableFiles count(Path table) throws IOException {
    long dataFiles;
    try (Stream<Path> files = Files.walk(table)) {
      dataFiles =
          files
              .filter(Files::isRegularFile)
              .filter(file -> file.getParent().getFileName().toString().startsWith("bucket-"))
              .filter(file -> !file.getFileName().toString().endsWith(".crc"))
              .count();
    }
    FileStoreTable store =
        FileStoreTableFactory.create(
            LocalFileIO.create(), new org.apache.paimon.fs.Path(table.toUri()));
    // A bucket's files may come in several splits: gather them per partition and bucket first.
    Map<List<Object>, List<DataFileMeta>> filesOfBucket = new HashMap<>();
    for (DataSplit split : store.newSnapshotReader().read().dataSplits()) {
      filesOfBucket
          .computeIfAbsent(List.of(split.partition(), split.bucket()), b -> new ArrayList<>())
          .addAll(split.dataFiles());
    }
    long live = 0;
    long runs = 0;
    long maxRuns = 0;
    for (List<DataFileMeta> files : filesOfBucket.values()) {
      Set<Integer> higherLevels = new HashSet<>();
      long bucketRuns = 0;
      for (DataFileMeta file : files) {
        if (file.level() == 0) {
          bucketRuns++;
        } else {
          higherLevels.add(file.level());
        }
      }
      bucketRuns += higherLevels.size();
      live += files.size();
      runs += bucketRuns;
      maxRuns = Math.max(maxRuns, bucketRuns);
    }
    return new PaimonTableFiles(dataFiles, live, runs, maxRuns);
  }

  /** The counts by name, for reports. */
  public Map<String, Long> asMap() {
    Map<String, Long> map = new LinkedHashMap<>();
    map.put("data files", dataFiles);
    map.put("live data files", liveDataFiles);
    map.put("sorted runs", sortedRuns);
    map.put("max sorted runs per bucket", maxSortedRunsPerBucket);
    return map;
  }
}
