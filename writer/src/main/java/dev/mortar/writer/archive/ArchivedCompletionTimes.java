package dev.mortar.writer.archive;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.annotation.Nullable;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The completion times of archived instants, read from the archived timeline on demand, as Hudi's
 * {@code CompletionTimeQueryView} loads them: a lookup of an instant reads the data files of the
 * archive's latest snapshot whose {@code <min>_<max>} range holds it (only their time and action
 * columns), each file once.
 *
 * <p>File slicing needs them: a delta commit that was still running when a compaction was requested
 * wrote its logs into that compaction's slice, and once both are archived only the archive says so.
 * The snapshot is read at the first lookup; the archiver publishes a snapshot before it deletes the
 * instants' active files, so an instant missing from a listing of the active timeline taken before
 * that lookup is in it.
 */
public final class ArchivedCompletionTimes {
  private final FileSystem fs;
  private final Path historyDir;
  @Nullable private List<ArchiveManifest.Entry> files;
  private final Set<String> filesRead = new HashSet<>();
  private final Map<String, String> completions = new HashMap<>();

  private ArchivedCompletionTimes(FileSystem fs, Path historyDir) {
    this.fs = fs;
    this.historyDir = historyDir;
  }

  /** The archived timeline of {@code timelineDir} ({@code .hoodie/timeline}); nothing read yet. */
  public static ArchivedCompletionTimes of(FileSystem fs, Path timelineDir) {
    return new ArchivedCompletionTimes(fs, new Path(timelineDir, "history"));
  }

  /**
   * The completion time of archived instant {@code instant}, or null if the archive does not hold
   * it.
   *
   * @throws UncheckedIOException if the archive cannot be read
   */
  @Nullable
  public synchronized String completionOf(String instant) {
    try {
      if (files == null) {
        files = ArchiveManifest.latest(fs, historyDir).files();
      }
      for (ArchiveManifest.Entry file : files) {
        ArchiveFileName name = ArchiveFileName.parse(file.fileName());
        if (instant.compareTo(name.min()) >= 0
            && instant.compareTo(name.max()) <= 0
            && filesRead.add(file.fileName())) {
          for (ArchivedInstant read :
              ArchiveFile.readTimes(fs, new Path(historyDir, file.fileName()))) {
            completions.put(read.instantTime(), read.completionTime());
          }
        }
      }
      return completions.get(instant);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot read the completion time of archived instant " + instant + " in " + historyDir,
          e);
    }
  }
}
