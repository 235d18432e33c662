package dev.mortar.writer.commit;

import dev.mortar.writer.write.WriteResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The committer's book of written but not yet committed instants, oldest first (instant times sort
 * as strings).
 *
 * <p>An instant is <i>sealed</i> by the first checkpoint snapshot that sees it: barrier alignment
 * guarantees that every write task's result for the interval after checkpoint N arrives before
 * barrier N+1, and no result of that interval arrives before barrier N, so whatever is here at
 * snapshot M is complete. A sealed instant becomes committable when its checkpoint (or a later one)
 * completes. Restored instants are committable at once: they were sealed by the checkpoint the job
 * restores from, which completed.
 */
final class PendingCommits {
  /** An instant's write results and the checkpoint that sealed it. */
  static final class Pending {
    final String instant;
    final List<WriteResult> results = new ArrayList<>();
    long sealedBy = Long.MAX_VALUE;
    long sealedAtMillis;

    Pending(String instant) {
      this.instant = instant;
    }
  }

  private final TreeMap<String, Pending> byInstant = new TreeMap<>();

  void add(WriteResult result) {
    byInstant.computeIfAbsent(result.instant(), Pending::new).results.add(result);
  }

  /** Seals every instant not sealed yet; they belong to checkpoint {@code checkpointId}. */
  void seal(long checkpointId, long nowMillis) {
    for (Pending pending : byInstant.values()) {
      if (pending.sealedBy == Long.MAX_VALUE) {
        pending.sealedBy = checkpointId;
        pending.sealedAtMillis = nowMillis;
      }
    }
  }

  /** Instants sealed by {@code completedCheckpoint} or earlier, oldest first. */
  List<Pending> committable(long completedCheckpoint) {
    List<Pending> result = new ArrayList<>();
    for (Pending pending : byInstant.values()) {
      if (pending.sealedBy <= completedCheckpoint) {
        result.add(pending);
      }
    }
    return result;
  }

  /** Every instant, sealed or not, oldest first. */
  List<Pending> all() {
    return new ArrayList<>(byInstant.values());
  }

  boolean contains(String instant) {
    return byInstant.containsKey(instant);
  }

  void remove(String instant) {
    byInstant.remove(instant);
  }

  /** All results, for the committer's checkpoint state. */
  List<WriteResult> results() {
    List<WriteResult> results = new ArrayList<>();
    for (Map.Entry<String, Pending> entry : byInstant.entrySet()) {
      results.addAll(entry.getValue().results);
    }
    return results;
  }
}
