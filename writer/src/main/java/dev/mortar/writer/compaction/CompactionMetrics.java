package dev.mortar.writer.compaction;

import dev.mortar.writer.table.CompactionWriteStat;
import java.util.function.LongSupplier;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.MetricGroup;

/**
 * The compaction stages' {@code mortar} metrics. A compaction task counts the records, log files
 * and bytes it compacted and the time its last file group took; the compaction committer counts
 * committed compactions, compactions unscheduled at the end of input, the time the last took from
 * its plan to its commit, the compactions pending on the timeline and the compaction lag (delta
 * commits completed since the oldest pending compaction was planned, or since the latest one when
 * none is pending).
 */
final class CompactionMetrics {
  private final MetricGroup group;
  private Counter records;
  private Counter logFiles;
  private Counter logBytes;
  private Counter baseFileBytes;
  private volatile long lastFileGroupMillis;
  private Counter compactions;
  private Counter unscheduled;
  private volatile long lastCompactionMillis;

  private CompactionMetrics(MetricGroup operatorGroup) {
    this.group = operatorGroup.addGroup("mortar");
  }

  static CompactionMetrics forTask(MetricGroup operatorGroup) {
    CompactionMetrics metrics = new CompactionMetrics(operatorGroup);
    metrics.records = metrics.group.counter("compactedRecords");
    metrics.logFiles = metrics.group.counter("compactedLogFiles");
    metrics.logBytes = metrics.group.counter("compactedLogBytes");
    metrics.baseFileBytes = metrics.group.counter("compactedBaseFileBytes");
    metrics.group.gauge(
        "lastFileGroupCompactionMs", (Gauge<Long>) () -> metrics.lastFileGroupMillis);
    return metrics;
  }

  static CompactionMetrics forCommitter(
      MetricGroup operatorGroup, LongSupplier pendingCompactions, LongSupplier compactionLag) {
    CompactionMetrics metrics = new CompactionMetrics(operatorGroup);
    metrics.compactions = metrics.group.counter("compactions");
    metrics.unscheduled = metrics.group.counter("unscheduledCompactions");
    metrics.group.gauge("lastCompactionMs", (Gauge<Long>) () -> metrics.lastCompactionMillis);
    metrics.group.gauge("pendingCompactions", (Gauge<Long>) pendingCompactions::getAsLong);
    metrics.group.gauge("compactionLagDeltaCommits", (Gauge<Long>) compactionLag::getAsLong);
    return metrics;
  }

  void compacted(CompactionWriteStat stat) {
    records.inc(stat.numWrites());
    logFiles.inc(stat.logFiles());
    logBytes.inc(stat.logBytes());
    baseFileBytes.inc(stat.sizeBytes());
    lastFileGroupMillis = stat.millis();
  }

  void committed(long millisSincePlanned) {
    compactions.inc();
    lastCompactionMillis = millisSincePlanned;
  }

  void unscheduled() {
    unscheduled.inc();
  }
}
