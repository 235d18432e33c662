package dev.mortar.writer.table;

/**
 * Who issues a requested instant time, each from its own clock in its own process: the instant
 * coordinator on the JobManager starts delta commits, the committer plans compactions, the
 * compaction committer plans cleans. Each issuer takes the times whose millisecond of the second,
 * modulo the number of issuers, is its ordinal, so two issuers never issue the same time, whatever
 * their clocks say and however late the other's time reaches the timeline (the way database
 * replicas split one key sequence with an increment and an offset). Completion times need no class:
 * each is the completing process's own and orders only against that process's times.
 */
public enum InstantIssuer {
  DELTA_COMMITS,
  COMPACTION_PLANS,
  CLEAN_PLANS;

  private static final int CLASSES = values().length;

  /** Whether a time whose millisecond of the second is {@code millisecond} is this issuer's. */
  boolean owns(int millisecond) {
    return millisecond % CLASSES == ordinal();
  }
}
