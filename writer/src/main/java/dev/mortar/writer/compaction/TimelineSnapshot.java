package dev.mortar.writer.compaction;

import dev.mortar.writer.archive.ArchivedCompletionTimes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NavigableSet;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import javax.annotation.Nullable;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * What one listing of {@code .hoodie/timeline/} (layout v2) says about compaction and cleaning: the
 * delta commits started ({@code T.deltacommit.requested}) and completed, with their completion
 * times ({@code T_X.deltacommit}), the compactions requested ({@code C.compaction.requested}) and
 * the completed commits ({@code C_X.commit}; on a Merge-On-Read table every commit is a
 * compaction), and the cleans requested ({@code T.clean.requested}) and completed ({@code
 * T_X.clean}). A compaction or clean is pending while its requested file has no completed file.
 * Everything the planners decide is derived from this listing, so a restored job sees what an
 * earlier attempt planned.
 *
 * <p>An instant older than every delta commit and compaction of the listing has been archived
 * (rfc/0007, "Archived (LSM) timeline"): as for Hudi's readers, it is completed, and before
 * anything the listing holds. Its completion time is read from the archive when a log file of it is
 * sliced ({@link ArchivedCompletionTimes}): a delta commit that was running when a compaction was
 * requested belongs to that compaction's slice, and both may be archived while that slice is still
 * the one readers read. Where the archive does not hold it, its requested time stands in: Mortar's
 * archiver moves only instants that completed before every instant it keeps was requested.
 */
public final class TimelineSnapshot {
  private static final String DELTA_COMMIT = ".deltacommit";
  private static final String COMMIT = ".commit";
  private static final String COMPACTION_REQUESTED = ".compaction.requested";
  private static final String DELTA_COMMIT_REQUESTED = ".deltacommit.requested";
  private static final String CLEAN = ".clean";
  private static final String CLEAN_REQUESTED = ".clean.requested";

  private final Map<String, String> deltaCommitCompletions = new TreeMap<>();
  private final NavigableSet<String> compactionRequests = new TreeSet<>();
  private final NavigableSet<String> completedCommits = new TreeSet<>();
  private final Set<String> requestedTimes = new HashSet<>();
  private final NavigableSet<String> startedDeltaCommits = new TreeSet<>();
  private final NavigableSet<String> cleanRequests = new TreeSet<>();
  private final Set<String> completedCleans = new HashSet<>();
  @Nullable private String timelineStart;
  private final Function<String, String> archivedCompletions;

  /**
   * @param archivedCompletions the completion time of an archived instant, or null if unknown
   */
  private TimelineSnapshot(Function<String, String> archivedCompletions) {
    this.archivedCompletions = archivedCompletions;
  }

  /**
   * Lists {@code timelineDir}. A listing is not atomic: while the archiver deletes an instant's
   * files (requested and inflight first, the completed file last) it may return the requested file
   * and miss the completed one. So every instant the listing shows pending is checked once more
   * after it: if its requested file is gone, it was being archived (or aborted), and it is left out
   * of the snapshot as if the listing had come after.
   */
  public static TimelineSnapshot read(FileSystem fs, Path timelineDir) {
    List<String> names = new ArrayList<>();
    try {
      for (FileStatus status : fs.listStatus(timelineDir)) {
        if (status.isFile()) {
          names.add(status.getPath().getName());
        }
      }
      Function<String, String> archived = ArchivedCompletionTimes.of(fs, timelineDir)::completionOf;
      TimelineSnapshot snapshot = of(names, archived);
      Set<String> vanished = new HashSet<>();
      for (Map.Entry<String, String> pending : snapshot.requestedFilesOfPending().entrySet()) {
        if (!fs.exists(new Path(timelineDir, pending.getValue()))) {
          vanished.add(pending.getKey());
        }
      }
      return vanished.isEmpty()
          ? snapshot
          : of(
              names.stream().filter(name -> !vanished.contains(requestedTime(name))).toList(),
              archived);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list timeline " + timelineDir, e);
    }
  }

  /** The requested file of each delta commit, compaction and clean this listing shows pending. */
  private Map<String, String> requestedFilesOfPending() {
    Map<String, String> files = new HashMap<>();
    for (String started : startedDeltaCommits) {
      if (!deltaCommitCompletions.containsKey(started)) {
        files.put(started, started + DELTA_COMMIT_REQUESTED);
      }
    }
    pendingCompactions().forEach(instant -> files.put(instant, instant + COMPACTION_REQUESTED));
    pendingCleans().forEach(instant -> files.put(instant, instant + CLEAN_REQUESTED));
    return files;
  }

  private static String requestedTime(String fileName) {
    int end = 0;
    while (end < fileName.length() && Character.isDigit(fileName.charAt(end))) {
      end++;
    }
    return fileName.substring(0, end);
  }

  /** A snapshot of the given instant file names, with no archive (for tests). */
  public static TimelineSnapshot of(Iterable<String> fileNames) {
    return of(fileNames, instant -> null);
  }

  /**
   * A snapshot of the given instant file names, with the completion times of archived instants that
   * {@code archivedCompletions} gives (null for one it does not hold).
   */
  public static TimelineSnapshot of(
      Iterable<String> fileNames, Function<String, String> archivedCompletions) {
    TimelineSnapshot snapshot = new TimelineSnapshot(archivedCompletions);
    fileNames.forEach(snapshot::add);
    return snapshot;
  }

  private void add(String fileName) {
    int dot = fileName.indexOf('.');
    if (dot <= 0 || !Character.isDigit(fileName.charAt(0))) {
      return;
    }
    String times = fileName.substring(0, dot);
    String action = fileName.substring(dot);
    int underscore = times.indexOf('_');
    String requested = underscore < 0 ? times : times.substring(0, underscore);
    requestedTimes.add(requested);
    boolean write =
        action.startsWith(DELTA_COMMIT)
            || action.startsWith(".compaction")
            || action.equals(COMMIT);
    if (write && (timelineStart == null || requested.compareTo(timelineStart) < 0)) {
      timelineStart = requested;
    }
    if (underscore < 0) {
      if (action.equals(COMPACTION_REQUESTED)) {
        compactionRequests.add(requested);
      } else if (action.equals(DELTA_COMMIT_REQUESTED)) {
        startedDeltaCommits.add(requested);
      } else if (action.equals(CLEAN_REQUESTED)) {
        cleanRequests.add(requested);
      }
    } else if (action.equals(DELTA_COMMIT)) {
      deltaCommitCompletions.put(requested, times.substring(underscore + 1));
    } else if (action.equals(COMMIT)) {
      completedCommits.add(requested);
    } else if (action.equals(CLEAN)) {
      completedCleans.add(requested);
    }
  }

  /**
   * The completion time of a delta commit (if it is archived, the archive's, or else its requested
   * time), or null if it is not completed.
   */
  @Nullable
  public String completionOf(String deltaCommit) {
    if (!isArchived(deltaCommit)) {
      return deltaCommitCompletions.get(deltaCommit);
    }
    String archived = archivedCompletions.apply(deltaCommit);
    return archived == null ? deltaCommit : archived;
  }

  boolean isCompletedCommit(String instant) {
    return completedCommits.contains(instant) || isArchived(instant);
  }

  private boolean isArchived(String instant) {
    return timelineStart != null && instant.compareTo(timelineStart) < 0;
  }

  /** Requested times of compactions without a completed commit, oldest first. */
  public NavigableSet<String> pendingCompactions() {
    NavigableSet<String> pending = new TreeSet<>(compactionRequests);
    pending.removeAll(completedCommits);
    return pending;
  }

  /** The newest compaction instant (pending or completed) before {@code instant}, or null. */
  @Nullable
  String latestCompactionBefore(String instant) {
    String requested = compactionRequests.lower(instant);
    String committed = completedCommits.lower(instant);
    if (requested == null || committed == null) {
      return requested == null ? committed : requested;
    }
    return requested.compareTo(committed) >= 0 ? requested : committed;
  }

  /**
   * How many delta commits completed after {@code after} (null: ever) and before {@code before}.
   */
  /** The earliest completion time of a delta commit on the listing, or null when none. */
  @Nullable
  String oldestDeltaCommitCompletion() {
    String oldest = null;
    for (String completion : deltaCommitCompletions.values()) {
      if (oldest == null || completion.compareTo(oldest) < 0) {
        oldest = completion;
      }
    }
    return oldest;
  }

  int deltaCommitsCompletedBetween(@Nullable String after, String before) {
    int count = 0;
    for (String completion : deltaCommitCompletions.values()) {
      if ((after == null || completion.compareTo(after) > 0) && completion.compareTo(before) < 0) {
        count++;
      }
    }
    return count;
  }

  /** How many delta commits completed after {@code after}. */
  public int deltaCommitsCompletedAfter(String after) {
    int count = 0;
    for (String completion : deltaCommitCompletions.values()) {
      if (completion.compareTo(after) > 0) {
        count++;
      }
    }
    return count;
  }

  /**
   * The completed instants of Hudi's commits-and-compaction timeline, by requested time, each with
   * its action: {@code deltacommit} or {@code commit} (a compaction).
   */
  public NavigableMap<String, String> completedWrites() {
    NavigableMap<String, String> writes = new TreeMap<>();
    deltaCommitCompletions.keySet().forEach(instant -> writes.put(instant, "deltacommit"));
    completedCommits.forEach(instant -> writes.put(instant, "commit"));
    return writes;
  }

  /**
   * The requested time of the oldest write that is not completed, a delta commit started or a
   * compaction planned, or null when there is none.
   */
  @Nullable
  public String earliestPendingWrite() {
    NavigableSet<String> pending = pendingCompactions();
    for (String started : startedDeltaCommits) {
      if (!deltaCommitCompletions.containsKey(started)) {
        pending.add(started);
        break;
      }
    }
    return pending.isEmpty() ? null : pending.first();
  }

  /** Requested times of cleans without a completed clean file, oldest first. */
  public NavigableSet<String> pendingCleans() {
    NavigableSet<String> pending = new TreeSet<>(cleanRequests);
    pending.removeAll(completedCleans);
    return pending;
  }

  /** Requested times of the completed cleans, oldest first. */
  public NavigableSet<String> completedCleans() {
    return new TreeSet<>(completedCleans);
  }

  /** Whether any instant file, of any action, has {@code instant} as its requested time. */
  public boolean hasInstant(String instant) {
    return requestedTimes.contains(instant);
  }
}
