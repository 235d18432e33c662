package dev.mortar.writer.archive;

import dev.mortar.writer.table.Timeline;
import java.io.ByteArrayOutputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import javax.annotation.Nullable;
import org.apache.avro.file.DataFileStream;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves the oldest instants of the active timeline into Hudi 1.1's archived (LSM) timeline in
 * {@code .hoodie/timeline/history/} ({@link ArchivalSelection} says which). One run:
 *
 * <ol>
 *   <li>writes the intent {@code .hoodie/.temp/archive.pending}: the new data file's name, then the
 *       active timeline files it replaces, one a line;
 *   <li>writes the data file {@code <min>_<max>_0.parquet} ({@link ArchiveFile});
 *   <li>publishes the next snapshot naming it ({@link ArchiveManifest}): the commit point;
 *   <li>deletes the archived instants' files from the active timeline, requested and inflight files
 *       first, then the completed ones oldest first, as Hudi does;
 *   <li>deletes the intent;
 *   <li>merges full layers of {@code history/} into the next ({@link ArchiveCompactor}) and deletes
 *       the snapshots and data files no longer needed ({@link ArchiveCleaner}), as Hudi's archiver
 *       does after each run.
 * </ol>
 *
 * A run that died is settled by the next one before it selects anything: if the intent's data file
 * is in the latest snapshot, the instants are archived and the run deletes the active files still
 * there; otherwise the archive never saw them and it deletes the partial data file. Until then
 * Hudi's readers see the instants in the active timeline (and, after step 3, in the archive too, as
 * during a run of Hudi's own archiver). A merge or clean that died needs no intent: it only
 * publishes a snapshot whose files are all written, and the next run's merge and clean finish or
 * discard what it left.
 */
public final class TimelineArchiver {
  private static final Logger LOG = LoggerFactory.getLogger(TimelineArchiver.class);
  static final String INTENT = "archive.pending";

  private final FileSystem fs;
  private final Path timelineDir;
  private final Path historyDir;
  private final Path intent;
  private final ArchivalPolicy policy;
  private final Timeline.Fence fence;
  private final ArchiveCompactor compactor;
  private final ArchiveCleaner cleaner;

  /** The data files of the latest snapshot as of the last run that archived, -1 before a run. */
  private int archiveFiles = -1;

  /**
   * What one run did and left.
   *
   * @param archived the instants it moved into the archive
   * @param activeInstants the instants it left on the active timeline (of its listing)
   * @param archiveFiles the data files the latest snapshot of the archive lists
   */
  public record ArchivalRun(int archived, int activeInstants, int archiveFiles) {}

  /**
   * @param timelineDir {@code .hoodie/timeline}
   * @param tempDir {@code .hoodie/.temp}, where the intent of a run is kept
   * @param fence checked before a run changes anything and before it publishes a snapshot (the
   *     writer lease, as for the timeline's own publishes)
   */
  public TimelineArchiver(
      FileSystem fs, Path timelineDir, Path tempDir, ArchivalPolicy policy, Timeline.Fence fence) {
    this.fs = fs;
    this.timelineDir = timelineDir;
    this.historyDir = new Path(timelineDir, "history");
    this.intent = new Path(tempDir, INTENT);
    this.policy = policy;
    this.fence = fence;
    this.compactor = new ArchiveCompactor(fs, historyDir, policy.mergeBatch());
    this.cleaner = new ArchiveCleaner(fs, historyDir);
  }

  /**
   * Settles a run that died, archives what is due, then merges and cleans {@code history/} if it
   * archived anything.
   */
  public ArchivalRun run() throws IOException {
    fence.check(INTENT);
    finishInterruptedRun();
    List<ActiveInstant> instants = ActiveTimeline.list(fs, timelineDir);
    List<ActiveInstant> selected =
        ArchivalSelection.select(
            instants, policy.minCommits(), policy.maxCommits(), newestCleanRetains(instants));
    if (!selected.isEmpty()) {
      archive(selected);
      int mergedLayers = compactor.compact();
      cleaner.clean(mergedLayers);
    }
    if (!selected.isEmpty() || archiveFiles < 0) {
      archiveFiles = ArchiveManifest.latest(fs, historyDir).files().size();
    }
    return new ArchivalRun(selected.size(), instants.size() - selected.size(), archiveFiles);
  }

  private void archive(List<ActiveInstant> selected) throws IOException {
    List<ArchivedInstant> records = new ArrayList<>();
    List<String> activeFiles = new ArrayList<>();
    for (ActiveInstant instant : selected) {
      records.add(toRecord(instant));
      activeFiles.addAll(instant.files());
    }
    String fileName =
        ArchiveFileName.ofRun(
                selected.get(0).requested(), selected.get(selected.size() - 1).requested())
            .toString();
    writeIntent(fileName, activeFiles);
    Path dataFile = new Path(historyDir, fileName);
    fs.mkdirs(historyDir);
    fs.delete(dataFile, false);
    ArchiveFile.write(fs, dataFile, records);
    fence.check(fileName);
    ArchiveManifest.latest(fs, historyDir)
        .publishWith(
            fs,
            historyDir,
            new ArchiveManifest.Entry(fileName, fs.getFileStatus(dataFile).getLen()));
    deleteActive(activeFiles);
    fs.delete(intent, false);
    LOG.info(
        "Archived {} instant(s) from {} to {} into {}",
        selected.size(),
        selected.get(0).requested(),
        selected.get(selected.size() - 1).requested(),
        dataFile);
  }

  private void finishInterruptedRun() throws IOException {
    List<String> lines;
    try (InputStream in = fs.open(intent)) {
      lines = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
    } catch (FileNotFoundException none) {
      return;
    }
    if (!lines.isEmpty()) {
      String fileName = lines.get(0);
      if (ArchiveManifest.latest(fs, historyDir).contains(fileName)) {
        LOG.info("Finishing the archival of {}: deleting its instants' active files", fileName);
        deleteActive(lines.subList(1, lines.size()));
      } else {
        LOG.info("Discarding {}, which an interrupted archival left unpublished", fileName);
        fs.delete(new Path(historyDir, fileName), false);
      }
    }
    fs.delete(intent, false);
  }

  private void writeIntent(String fileName, List<String> activeFiles) throws IOException {
    fs.delete(intent, false);
    try (OutputStream out = fs.create(intent, false)) {
      out.write(
          (fileName + "\n" + String.join("\n", activeFiles)).getBytes(StandardCharsets.UTF_8));
    }
  }

  /** Deletes requested and inflight files first, then completed files, in the given order. */
  private void deleteActive(List<String> files) throws IOException {
    for (String file : files) {
      if (!file.contains("_")) {
        fs.delete(new Path(timelineDir, file), false);
      }
    }
    for (String file : files) {
      if (file.contains("_")) {
        fs.delete(new Path(timelineDir, file), false);
      }
    }
  }

  private ArchivedInstant toRecord(ActiveInstant instant) throws IOException {
    boolean hasPlan =
        instant.action().equals(ActiveInstant.COMMIT)
            || instant.action().equals(ActiveInstant.CLEAN);
    return new ArchivedInstant(
        instant.requested(),
        instant.completion(),
        instant.action(),
        read(instant.completedFile()),
        hasPlan ? read(instant.requestedFile()) : null);
  }

  /** The bytes of a timeline file, or null if there is none or it is empty (as Hudi stores it). */
  @Nullable
  private byte[] read(@Nullable String fileName) throws IOException {
    if (fileName == null) {
      return null;
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (InputStream in = fs.open(new Path(timelineDir, fileName))) {
      in.transferTo(bytes);
    }
    return bytes.size() == 0 ? null : bytes.toByteArray();
  }

  /** The {@code earliestCommitToRetain} of the newest completed clean, or null. */
  @Nullable
  private String newestCleanRetains(List<ActiveInstant> instants) throws IOException {
    ActiveInstant newest = null;
    for (ActiveInstant instant : instants) {
      if (instant.isCompleted() && instant.action().equals(ActiveInstant.CLEAN)) {
        newest = instant;
      }
    }
    if (newest == null) {
      return null;
    }
    try (InputStream in = fs.open(new Path(timelineDir, newest.completedFile()));
        DataFileStream<GenericRecord> records =
            new DataFileStream<>(in, new GenericDatumReader<>())) {
      Object retain = records.next().get("earliestCommitToRetain");
      return retain == null ? null : retain.toString();
    }
  }
}
