package dev.mortar.writer.compaction;

import dev.mortar.buffer.PagePool;
import dev.mortar.logformat.BaseFileWriter;
import dev.mortar.logformat.BaseFileWriter.BaseFileStat;
import dev.mortar.logformat.ParquetCodec;
import dev.mortar.logformat.ParquetWriterResources;
import dev.mortar.logformat.read.StoredRowType;
import dev.mortar.writer.input.OrderingField;
import dev.mortar.writer.table.CompactionWriteStat;
import dev.mortar.writer.table.CompactionWriteStat.PreviousBase;
import dev.mortar.writer.table.Timeline;
import java.io.File;
import java.io.IOException;
import java.util.concurrent.CancellationException;
import java.util.function.BooleanSupplier;
import org.apache.avro.Schema;
import org.apache.flink.table.types.logical.RowType;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Compacts one file slice of a plan into its new base file {@code
 * <fileId>_<writeToken>_<C>.parquet} (shared/spec/hudi-table-services.md §2.1, §2.3):
 *
 * <ol>
 *   <li>delete every base file of {@code C} in the file group: an earlier attempt's, partial or
 *       whole (readers ignore them while {@code C} is pending, but a slice must end with one);
 *   <li>write the marker {@code .hoodie/.temp/<C>/<partition>/<name>.marker.MERGE}, so that Hudi's
 *       rollback of an unfinished {@code C} finds the file too;
 *   <li>merge the slice ({@link SliceMerger}) into the new file; on failure, or when told to stop,
 *       delete it.
 * </ol>
 *
 * Running a task again is therefore always safe, whatever an earlier attempt left. One compaction
 * thread uses an instance, which keeps parquet-mr's buffers and compressors from one base file to
 * the next ({@link ParquetWriterResources}).
 */
final class FileGroupCompactor implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(FileGroupCompactor.class);

  private final FileSystem fs;
  private final Path basePath;
  private final Path tempDir;
  private final RowType dataType;
  private final Schema storedSchema;
  private final ParquetCodec codec;
  private final long rowGroupBytes;
  private final boolean dictionaryPerColumn;
  private final String writeToken;
  private final SliceMerger merger;
  private final ParquetWriterResources parquetResources = new ParquetWriterResources();

  FileGroupCompactor(
      FileSystem fs,
      Path basePath,
      Path tempDir,
      RowType dataType,
      Schema storedSchema,
      String orderingField,
      ParquetCodec codec,
      long rowGroupBytes,
      boolean dictionaryPerColumn,
      String writeToken,
      PagePool pool,
      File spillDir) {
    this.fs = fs;
    this.basePath = basePath;
    this.tempDir = tempDir;
    this.dataType = dataType;
    this.storedSchema = storedSchema;
    this.codec = codec;
    this.rowGroupBytes = rowGroupBytes;
    this.dictionaryPerColumn = dictionaryPerColumn;
    this.writeToken = writeToken;
    this.merger =
        new SliceMerger(
            fs,
            dataType,
            OrderingField.of(StoredRowType.of(dataType), orderingField),
            pool,
            spillDir);
  }

  /**
   * Compacts {@code task}'s slice; {@code stop} is asked between rows, and once it says so the
   * merge stops, the file is deleted and a {@link java.util.concurrent.CancellationException} ends
   * the call.
   */
  CompactionWriteStat compact(CompactionTask task, BooleanSupplier stop) throws IOException {
    long start = System.nanoTime();
    FileGroupId group = task.fileGroup();
    Path partitionDir =
        group.partitionPath().isEmpty() ? basePath : new Path(basePath, group.partitionPath());
    deleteEarlierAttempts(partitionDir, group.fileId(), task.instant());
    String name = group.fileId() + "_" + writeToken + "_" + task.instant() + ".parquet";
    Path markerDir = new Path(tempDir, task.instant());
    if (!group.partitionPath().isEmpty()) {
      markerDir = new Path(markerDir, group.partitionPath());
    }
    Path marker = new Path(markerDir, name + Timeline.MERGE_MARKER_SUFFIX);
    fs.create(marker, true).close();
    Path file = new Path(partitionDir, name);
    SliceMerger.Counts counts;
    BaseFileStat written;
    try (BaseFileWriter writer =
        new BaseFileWriter(
            fs,
            file,
            dataType,
            storedSchema,
            codec,
            rowGroupBytes,
            dictionaryPerColumn,
            parquetResources)) {
      counts = merger.merge(partitionDir, task.baseFileName(), task.logFileNames(), writer, stop);
      written = writer.finish();
    } catch (CancellationException e) {
      fs.delete(file, false);
      throw e;
    } catch (IOException | RuntimeException e) {
      fs.delete(file, false);
      throw new IOException(
          "compaction " + task.instant() + " of file group " + group + " failed", e);
    }
    long millis = (System.nanoTime() - start) / 1_000_000;
    LOG.info(
        "Compacted {} of {} into {}: {} record(s) from {} log record(s) in {} pass(es), {} ms",
        group,
        task.instant(),
        name,
        written.records(),
        counts.logRecords,
        counts.passes,
        millis);
    return new CompactionWriteStat(
        group.partitionPath(),
        group.fileId(),
        name,
        task.baseFileName() == null
            ? null
            : new PreviousBase(task.baseInstant(), task.baseFileName()),
        written.records(),
        counts.deletes,
        counts.updatedBaseRows,
        written.sizeBytes(),
        counts.logRecords,
        counts.logBlocks,
        task.logFileNames().size(),
        counts.logBytes,
        millis);
  }

  private void deleteEarlierAttempts(Path partitionDir, String fileId, String instant)
      throws IOException {
    String suffix = "_" + instant + ".parquet";
    for (FileStatus status : fs.listStatus(partitionDir)) {
      String name = status.getPath().getName();
      if (name.startsWith(fileId + "_") && name.endsWith(suffix)) {
        LOG.info("Deleting {} left by an earlier attempt of compaction {}", name, instant);
        fs.delete(status.getPath(), false);
      }
    }
  }

  @Override
  public void close() {
    merger.close();
  }
}
