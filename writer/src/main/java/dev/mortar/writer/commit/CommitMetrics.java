package dev.mortar.writer.commit;

import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.MetricGroup;

/**
 * The committer's {@code mortar} metrics: commits, log files and bytes of the last commit, and
 * commit latency (from the checkpoint snapshot that sealed the instant to its commit file).
 */
final class CommitMetrics {
  private final Counter commits;
  private final Counter aborts;
  private volatile long lastLogFiles;
  private volatile long lastLogBytes;
  private volatile long lastLatencyMillis;

  CommitMetrics(MetricGroup operatorGroup) {
    MetricGroup mortar = operatorGroup.addGroup("mortar");
    commits = mortar.counter("commits");
    aborts = mortar.counter("abortedInstants");
    mortar.gauge("lastCommitLogFiles", (Gauge<Long>) () -> lastLogFiles);
    mortar.gauge("lastCommitLogBytes", (Gauge<Long>) () -> lastLogBytes);
    mortar.gauge("lastCommitLatencyMs", (Gauge<Long>) () -> lastLatencyMillis);
  }

  void committed(long logFiles, long logBytes, long latencyMillis) {
    commits.inc();
    lastLogFiles = logFiles;
    lastLogBytes = logBytes;
    lastLatencyMillis = latencyMillis;
  }

  void aborted() {
    aborts.inc();
  }
}
