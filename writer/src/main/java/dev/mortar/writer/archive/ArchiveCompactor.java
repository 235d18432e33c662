package dev.mortar.writer.archive;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Merges the data files of the archived timeline into higher LSM layers, as Hudi 1.1's {@code
 * LSMTimelineWriter.compactAndClean} does after each archival run, so {@code history/} holds a
 * number of files logarithmic in the runs instead of one per run. Layer by layer from 0, where the
 * latest snapshot lists at least {@code batchSize} files of the layer:
 *
 * <ol>
 *   <li>the first {@code batchSize} of them by file name (that is by smallest requested time),
 *       fewer if they pass {@link #MAX_MERGED_BYTES}; none if fewer than two are left;
 *   <li>their records copied unchanged, file after file, into {@code <min>_<max>_<layer+1>.parquet}
 *       ({@link ArchiveFileName#merged}), a leftover of that name deleted first;
 *   <li>the next snapshot published: the merged files replaced by the new one (the commit point).
 * </ol>
 *
 * Hudi stops at the first layer it does not merge; this looks at every layer, which is the same
 * unless a run died between the merges of two layers: then the next run finishes the higher one
 * instead of leaving it over-full until the layer below merges again.
 *
 * <p>A crash before the snapshot leaves the old one intact, whose files all remain; the next merge
 * of the same files rewrites the leftover, and {@link ArchiveCleaner} deletes it if it is never
 * published. No marker file is written, as in Hudi.
 */
final class ArchiveCompactor {
  private static final Logger LOG = LoggerFactory.getLogger(ArchiveCompactor.class);

  /** Hudi's bound on the files merged at once: no more once their lengths pass 1,000 MiB. */
  static final long MAX_MERGED_BYTES = 1000L * 1024 * 1024;

  private final FileSystem fs;
  private final Path historyDir;
  private final int batchSize;

  /**
   * @param batchSize files of one layer merged at once ({@code
   *     hoodie.timeline.compaction.batch.size}, 10 in Hudi)
   */
  ArchiveCompactor(FileSystem fs, Path historyDir, int batchSize) {
    if (batchSize < 2) {
      throw new IllegalArgumentException(
          "archived timeline merge batch: expected at least 2 files, found " + batchSize);
    }
    this.fs = fs;
    this.historyDir = historyDir;
    this.batchSize = batchSize;
  }

  /** Merges every layer that is due, lowest first; returns how many layers it merged. */
  int compact() throws IOException {
    ArchiveManifest manifest = ArchiveManifest.latest(fs, historyDir);
    int merges = 0;
    for (int layer = 0; layer <= highestLayer(manifest); layer++) {
      List<ArchiveManifest.Entry> merged = candidates(manifest, layer);
      if (merged.size() >= 2) {
        manifest = merge(manifest, merged);
        merges++;
      }
    }
    return merges;
  }

  private static int highestLayer(ArchiveManifest manifest) {
    int highest = 0;
    for (ArchiveManifest.Entry file : manifest.files()) {
      highest = Math.max(highest, ArchiveFileName.parse(file.fileName()).layer());
    }
    return highest;
  }

  private List<ArchiveManifest.Entry> candidates(ArchiveManifest manifest, int layer) {
    List<ArchiveManifest.Entry> files = new ArrayList<>();
    for (ArchiveManifest.Entry file : manifest.files()) {
      if (ArchiveFileName.parse(file.fileName()).layer() == layer) {
        files.add(file);
      }
    }
    if (files.size() < batchSize) {
      return List.of();
    }
    files.sort(Comparator.comparing(ArchiveManifest.Entry::fileName));
    List<ArchiveManifest.Entry> candidates = new ArrayList<>();
    long bytes = 0;
    for (ArchiveManifest.Entry file : files.subList(0, batchSize)) {
      if (bytes > MAX_MERGED_BYTES) {
        break;
      }
      bytes += file.fileLen();
      candidates.add(file);
    }
    return candidates;
  }

  private ArchiveManifest merge(ArchiveManifest manifest, List<ArchiveManifest.Entry> files)
      throws IOException {
    List<String> names = files.stream().map(ArchiveManifest.Entry::fileName).toList();
    String mergedName =
        ArchiveFileName.merged(names.stream().map(ArchiveFileName::parse).toList()).toString();
    if (manifest.contains(mergedName)) {
      throw new IllegalStateException(
          "cannot merge "
              + names
              + " into "
              + mergedName
              + ": snapshot "
              + manifest.version()
              + " of "
              + historyDir
              + " lists that file already");
    }
    List<ArchivedInstant> records = new ArrayList<>();
    for (String name : names) {
      records.addAll(ArchiveFile.read(fs, new Path(historyDir, name)));
    }
    Path merged = new Path(historyDir, mergedName);
    fs.delete(merged, false);
    ArchiveFile.write(fs, merged, records);
    ArchiveManifest next =
        manifest.publishReplacing(
            fs,
            historyDir,
            names,
            new ArchiveManifest.Entry(mergedName, fs.getFileStatus(merged).getLen()));
    LOG.info("Merged {} archived timeline files into {}: {}", names.size(), merged, names);
    return next;
  }
}
