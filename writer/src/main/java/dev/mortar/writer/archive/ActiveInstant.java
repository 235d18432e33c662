package dev.mortar.writer.archive;

import java.util.List;
import javax.annotation.Nullable;

/**
 * One instant of the active timeline (layout v2) with all its files: {@code T.<a>.requested},
 * {@code T.<a>.inflight} and, once completed, {@code T_C.<action>}. A compaction's pending files
 * say {@code compaction} and its completed file {@code commit}; {@link #action} is the completed
 * name.
 *
 * @param requested the requested time {@code T}
 * @param action the action of the completed file, or of the pending files while there is none
 * @param completion the completion time {@code C}, or null while the instant is pending
 * @param requestedFile the file holding the instant's plan ({@code T.<a>.requested}), or null
 * @param completedFile {@code T_C.<action>}, or null while the instant is pending
 * @param files every file of the instant, requested and inflight before the completed one
 */
record ActiveInstant(
    String requested,
    String action,
    @Nullable String completion,
    @Nullable String requestedFile,
    @Nullable String completedFile,
    List<String> files) {

  static final String DELTA_COMMIT = "deltacommit";
  static final String COMMIT = "commit";
  static final String COMPACTION = "compaction";
  static final String CLEAN = "clean";

  boolean isCompleted() {
    return completion != null;
  }

  /** A completed delta commit or compaction: what Hudi's archiver counts as a commit. */
  boolean isCompletedCommit() {
    return isCompleted() && (action.equals(DELTA_COMMIT) || action.equals(COMMIT));
  }

  /** A compaction, pending ({@code compaction}) or completed ({@code commit}). */
  boolean isCompaction() {
    return action.equals(COMPACTION) || action.equals(COMMIT);
  }
}
