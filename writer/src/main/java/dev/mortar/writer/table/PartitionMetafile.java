package dev.mortar.writer.table;

import java.io.IOException;
import java.util.Map;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * {@code <partition>/.hoodie_partition_metadata} (§1.1): without a metadata table, Hudi's readers
 * discover a partition only through this file. Properties text: {@code commitTime=<first instant
 * that wrote the partition>}, {@code partitionDepth=<path levels below the base path>}. For a
 * non-partitioned table it sits in the base path.
 */
final class PartitionMetafile {
  static final String NAME = ".hoodie_partition_metadata";

  private PartitionMetafile() {}

  static Path path(Path basePath, String partitionPath) {
    Path partitionDir = partitionPath.isEmpty() ? basePath : new Path(basePath, partitionPath);
    return new Path(partitionDir, NAME);
  }

  /** Writes the metafile unless it exists; safe to race (the first writer's file stays). */
  static void ensure(
      FileSystem fs, Path basePath, Path tempDir, String partitionPath, String instant)
      throws IOException {
    Path target = path(basePath, partitionPath);
    if (fs.exists(target)) {
      return;
    }
    PropertiesFile.publish(
        fs,
        tempDir,
        target,
        Map.of(
            "commitTime",
            instant,
            "partitionDepth",
            Integer.toString(PartitionPaths.depth(partitionPath))),
        "partition metadata");
  }
}
