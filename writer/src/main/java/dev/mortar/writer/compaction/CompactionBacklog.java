package dev.mortar.writer.compaction;

import java.util.NavigableSet;

/**
 * How far compaction is behind ingestion on a timeline: the compaction plans pending ({@code
 * C.compaction.requested} without {@code C_X.commit}), and the lag, the delta commits completed
 * after the oldest pending plan's instant. A delta commit adds at most one log file to a file
 * group's slice, and the slice a pending plan leaves behind opens at the plan's instant, so the lag
 * bounds the log files of every such slice.
 */
public record CompactionBacklog(int pendingPlans, int lag) {

  public static CompactionBacklog of(TimelineSnapshot snapshot) {
    NavigableSet<String> pending = snapshot.pendingCompactions();
    if (pending.isEmpty()) {
      return new CompactionBacklog(0, 0);
    }
    return new CompactionBacklog(
        pending.size(), snapshot.deltaCommitsCompletedAfter(pending.first()));
  }

  /**
   * Whether more than {@code maxPendingPlans} plans are pending or the lag is more than {@code
   * maxLag}; a limit of 0 is no limit.
   */
  public boolean exceeds(int maxPendingPlans, int maxLag) {
    return (maxPendingPlans > 0 && pendingPlans > maxPendingPlans) || (maxLag > 0 && lag > maxLag);
  }
}
