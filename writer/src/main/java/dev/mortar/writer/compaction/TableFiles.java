package dev.mortar.writer.compaction;

import java.io.IOException;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Lists the data files of a table by file group: every base file and log file below the base path,
 * outside the {@code .hoodie} folder. The partition of a file is its folder relative to the base
 * path. One listing costs one directory listing per partition folder.
 */
public final class TableFiles {
  private static final String META_FOLDER = ".hoodie";

  private TableFiles() {}

  public static Map<FileGroupId, FileGroupFiles> list(FileSystem fs, Path basePath)
      throws IOException {
    Map<FileGroupId, FileGroupFiles> groups = new TreeMap<>();
    listInto(fs, fs.makeQualified(basePath), "", groups);
    return groups;
  }

  private static void listInto(
      FileSystem fs, Path dir, String partitionPath, Map<FileGroupId, FileGroupFiles> groups)
      throws IOException {
    for (FileStatus status : fs.listStatus(dir)) {
      String name = status.getPath().getName();
      if (status.isDirectory()) {
        if (!(partitionPath.isEmpty() && name.equals(META_FOLDER))) {
          listInto(
              fs,
              status.getPath(),
              partitionPath.isEmpty() ? name : partitionPath + "/" + name,
              groups);
        }
        continue;
      }
      Optional<LogFile> log = LogFile.parse(name, status.getLen());
      if (log.isPresent()) {
        filesOf(groups, partitionPath, log.get().fileId()).logFiles().add(log.get());
        continue;
      }
      Optional<BaseFile> base = BaseFile.parse(name, status.getLen());
      if (base.isPresent()) {
        filesOf(groups, partitionPath, base.get().fileId()).baseFiles().add(base.get());
      }
    }
  }

  private static FileGroupFiles filesOf(
      Map<FileGroupId, FileGroupFiles> groups, String partitionPath, String fileId) {
    return groups.computeIfAbsent(
        new FileGroupId(partitionPath, fileId), id -> FileGroupFiles.empty());
  }
}
