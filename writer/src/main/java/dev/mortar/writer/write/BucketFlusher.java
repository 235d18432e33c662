package dev.mortar.writer.write;

import dev.mortar.buffer.BucketBuffer;
import dev.mortar.buffer.BufferCursor;
import dev.mortar.logformat.BlockScratch;
import dev.mortar.logformat.LogFileStat;
import dev.mortar.logformat.LogFileWriter;
import dev.mortar.logformat.LogWriterOptions;
import dev.mortar.serde.Operation;
import dev.mortar.writer.input.OrderingField;
import dev.mortar.writer.table.WriteStat;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.types.logical.RowType;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Writes a sealed bucket buffer as new log file(s) of its file group. A write task makes one and
 * uses it only from its {@link FlushQueue} thread: the {@link BlockScratch} every {@link
 * LogFileWriter} encodes with belongs to this object, so the flush thread shares no mutable state
 * with the task thread (Hadoop's file system is safe to share between threads).
 */
final class BucketFlusher {
  private final FileSystem fs;
  private final Path basePath;
  private final RowType rowType;
  private final LogWriterOptions options;
  private final OrderingField ordering;
  private final String writeToken;
  private final BlockScratch scratch;

  BucketFlusher(
      FileSystem fs,
      Path basePath,
      RowType rowType,
      LogWriterOptions options,
      OrderingField ordering,
      String writeToken) {
    this.fs = fs;
    this.basePath = basePath;
    this.rowType = rowType;
    this.options = options;
    this.ordering = ordering;
    this.writeToken = writeToken;
    this.scratch = options.newBlockScratch();
  }

  /** Writes the records of {@code sealed} under {@code instantTime}; returns the files written. */
  FlushQueue.Flushed write(
      BucketBuffer sealed, String partitionPath, String fileId, String instantTime)
      throws IOException {
    long start = System.nanoTime();
    try (LogFileWriter writer =
        new LogFileWriter(
            fs,
            basePath,
            partitionPath,
            fileId,
            instantTime,
            writeToken,
            rowType,
            options,
            scratch)) {
      BufferCursor cursor = sealed.cursor();
      while (cursor.next()) {
        if (cursor.operation() == Operation.DELETE) {
          writer.delete(cursor.key(), ordering.toOrderingValue(cursor.orderingValue()));
        } else {
          writer.write(cursor.key(), cursor.row());
        }
      }
      List<LogFileStat> files = writer.finish();
      long millis = (System.nanoTime() - start) / 1_000_000;
      List<WriteStat> stats = new ArrayList<>(files.size());
      for (LogFileStat stat : files) {
        stats.add(toWriteStat(stat, millis));
      }
      return new FlushQueue.Flushed(stats, millis);
    }
  }

  private static WriteStat toWriteStat(LogFileStat stat, long millis) {
    // The task does not look up whether a key is new to its file group: every data record
    // counts as an insert of this log file (readers merge by key either way).
    return new WriteStat(
        stat.partitionPath(),
        stat.fileId(),
        stat.fileName(),
        stat.version(),
        stat.numWrites(),
        0,
        stat.numDeletes(),
        stat.numBlocks(),
        stat.sizeBytes(),
        millis);
  }
}
