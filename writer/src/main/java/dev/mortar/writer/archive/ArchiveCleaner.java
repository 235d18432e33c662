package dev.mortar.writer.archive;

import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes old snapshots of the archived timeline and the data files no retained snapshot lists, as
 * Hudi 1.1's {@code LSMTimelineWriter.clean} does after each archival run: once there are more than
 * {@link #RETAINED_VERSIONS} plus the layers just merged {@code manifest_N} files, it keeps the
 * newest that many, deletes the other manifests first, then every {@code *.parquet} in {@code
 * history/} that none of the kept manifests lists (merged files, and files a crashed merge left).
 *
 * <p>A reader that read an older {@code _version_} can still load its snapshot while it is among
 * the kept ones. Deleting manifests before data files means a crash never leaves a kept snapshot
 * without its files; the next clean finishes the work.
 */
final class ArchiveCleaner {
  private static final Logger LOG = LoggerFactory.getLogger(ArchiveCleaner.class);

  /** Hudi 1.1 keeps 3 snapshot versions besides those of the layers just merged. */
  static final int RETAINED_VERSIONS = 3;

  private final FileSystem fs;
  private final Path historyDir;

  ArchiveCleaner(FileSystem fs, Path historyDir) {
    this.fs = fs;
    this.historyDir = historyDir;
  }

  /**
   * @param mergedLayers the layers the run just merged ({@link ArchiveCompactor#compact})
   * @return the files deleted
   */
  int clean(int mergedLayers) throws IOException {
    List<Integer> versions = ArchiveManifest.versions(fs, historyDir);
    int kept = RETAINED_VERSIONS + mergedLayers;
    if (versions.size() <= kept) {
      return 0;
    }
    List<Integer> keptVersions = versions.subList(versions.size() - kept, versions.size());
    Set<String> keptFiles = new HashSet<>();
    for (int version : keptVersions) {
      for (ArchiveManifest.Entry file : ArchiveManifest.read(fs, historyDir, version).files()) {
        keptFiles.add(file.fileName());
      }
    }
    int deleted = 0;
    for (int version : versions.subList(0, versions.size() - kept)) {
      fs.delete(ArchiveManifest.path(historyDir, version), false);
      deleted++;
    }
    for (FileStatus status : fs.listStatus(historyDir)) {
      String name = status.getPath().getName();
      if (name.endsWith(".parquet") && !keptFiles.contains(name)) {
        fs.delete(status.getPath(), false);
        deleted++;
      }
    }
    LOG.info(
        "Cleaned the archived timeline {}: kept snapshots {}, deleted {} file(s)",
        historyDir,
        keptVersions,
        deleted);
    return deleted;
  }
}
