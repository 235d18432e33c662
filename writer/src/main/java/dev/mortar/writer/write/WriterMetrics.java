package dev.mortar.writer.write;

import dev.mortar.writer.table.WriteStat;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.MetricGroup;

/**
 * A write task's metrics: Flink's sink conventions ({@code numRecordsSend}, {@code numBytesSend}:
 * records and bytes written to log files) and the {@code mortar} group (rows received, buffer bytes
 * used and total, flushes, flush time, preemptions: flushes forced by a full pool, {@code stalled}
 * 1 while the task holds its input for compaction and {@code stallTimeMs}). Rows received counts
 * shuffle rows: behind the bucket shuffle Flink's own {@code numRecordsIn} counts batches.
 */
final class WriterMetrics {
  private final Counter recordsSend;
  private final Counter bytesSend;
  private final Counter flushes;
  private final Counter flushMillis;
  private final Counter preemptions;
  private final Counter logFiles;
  private final Counter rowsReceived;
  private final Counter stallMillis;
  private volatile int stalled;

  WriterMetrics(MetricGroup operatorGroup, BucketBuffers buffers) {
    recordsSend = operatorGroup.counter("numRecordsSend");
    bytesSend = operatorGroup.counter("numBytesSend");
    MetricGroup mortar = operatorGroup.addGroup("mortar");
    mortar.gauge("bufferBytesUsed", (Gauge<Long>) buffers::bytesInUse);
    mortar.gauge("bufferBytesTotal", (Gauge<Long>) buffers::budgetBytes);
    flushes = mortar.counter("flushes");
    flushMillis = mortar.counter("flushTimeMs");
    preemptions = mortar.counter("preemptions");
    logFiles = mortar.counter("logFilesWritten");
    rowsReceived = mortar.counter("rowsReceived");
    mortar.gauge("stalled", (Gauge<Integer>) () -> stalled);
    stallMillis = mortar.counter("stallTimeMs");
  }

  void flushed(Iterable<WriteStat> stats, long millis) {
    flushes.inc();
    flushMillis.inc(millis);
    for (WriteStat stat : stats) {
      recordsSend.inc(stat.numWrites() + stat.numDeletes());
      bytesSend.inc(stat.sizeBytes());
      logFiles.inc();
    }
  }

  void rowReceived() {
    rowsReceived.inc();
  }

  void preempted() {
    preemptions.inc();
  }

  void stalled(boolean holding) {
    stalled = holding ? 1 : 0;
  }

  void held(long millis) {
    stallMillis.inc(millis);
  }
}
