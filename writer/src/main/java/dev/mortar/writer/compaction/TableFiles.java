package dev.mortar.writer.compaction;

import dev.mortar.writer.table.DataFiles;
import java.io.IOException;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Lists the data files of a table by file group: every base file and log file below the base path,
 * outside the {@code .hoodie} folder, in one recursive listing ({@link DataFiles}). The partition
 * of a file is its folder relative to the base path.
 */
public final class TableFiles {
  private TableFiles() {}

  public static Map<FileGroupId, FileGroupFiles> list(FileSystem fs, Path basePath)
      throws IOException {
    Map<FileGroupId, FileGroupFiles> groups = new TreeMap<>();
    for (DataFiles.DataFile file : DataFiles.list(fs, basePath)) {
      String name = file.name();
      long length = file.status().getLen();
      Optional<LogFile> log = LogFile.parse(name, length);
      if (log.isPresent()) {
        filesOf(groups, file.partitionPath(), log.get().fileId()).logFiles().add(log.get());
        continue;
      }
      Optional<BaseFile> base = BaseFile.parse(name, length);
      if (base.isPresent()) {
        filesOf(groups, file.partitionPath(), base.get().fileId()).baseFiles().add(base.get());
      }
    }
    return groups;
  }

  private static FileGroupFiles filesOf(
      Map<FileGroupId, FileGroupFiles> groups, String partitionPath, String fileId) {
    return groups.computeIfAbsent(
        new FileGroupId(partitionPath, fileId), id -> FileGroupFiles.empty());
  }
}
