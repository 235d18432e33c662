package dev.mortar.writer.table;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.TreeSet;
import javax.annotation.Nullable;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;

/**
 * The deltacommit instants of a table's active timeline, layout v2 (§3), in {@code
 * .hoodie/timeline/}:
 *
 * <pre>
 *   T.deltacommit.requested    empty, written by {@link #startInstant()}
 *   T.deltacommit.inflight     empty, written right after (as Hudi's Flink coordinator does)
 *   T_C.deltacommit            Avro commit metadata, published by {@link #complete} with one rename
 *   C.compaction.requested     a compaction plan, published by {@link #requestCompaction}
 *   C.compaction.inflight      empty, written by {@link #startCompaction} before its base files
 *   C_X.commit                 Avro commit metadata of the compaction, by {@link #completeCompaction}
 *   T.clean.requested          a cleaner plan, published by {@link #requestClean}
 *   T.clean.inflight           empty, written by {@link #startClean} before files are deleted
 *   T_X.clean                  Avro clean metadata, published by {@link #completeClean}
 * </pre>
 *
 * A log file is visible to Hudi's readers iff the instant in its name has a completed file, so the
 * rename in {@link #complete} is the commit point. Two processes write a table's timeline: the
 * {@code InstantCoordinator} on the JobManager starts instants, the committer operator completes
 * and aborts them. Each issues its times from its own {@link InstantClock}, which takes the latest
 * time on disk as its floor, so the times are increasing and a completion time is later than its
 * requested time, across restarts too; requested times of different issuers never meet ({@link
 * InstantIssuer}). A compaction instant comes from the committer's clock ({@link #newInstantTime}),
 * so every delta commit the committer completes afterwards has a later completion time.
 */
public final class Timeline {
  static final String ACTION = ".deltacommit";
  private static final String COMPACTION_REQUESTED = ".compaction.requested";
  private static final String COMPACTION_INFLIGHT = ".compaction.inflight";

  /** What a compaction's marker adds to the name of the base file it marks. */
  public static final String MERGE_MARKER_SUFFIX = ".marker.MERGE";

  private static final String COMMIT = ".commit";
  private static final String CLEAN = ".clean";
  private static final String CLEAN_REQUESTED = CLEAN + ".requested";
  private static final String CLEAN_INFLIGHT = CLEAN + ".inflight";
  private static final String REQUESTED = ACTION + ".requested";
  private static final String INFLIGHT = ACTION + ".inflight";

  private final FileSystem fs;
  private final Path basePath;
  private final Path timelineDir;
  private final Path tempDir;
  private final InstantClock clock;

  /** A check before each publish; it throws to stop a writer that must not publish any more. */
  @FunctionalInterface
  public interface Fence {
    /**
     * @param publishing the file about to be published
     */
    void check(String publishing);
  }

  @Nullable private volatile Fence fence;

  Timeline(FileSystem fs, Path basePath, Path timelineDir, Path tempDir, Clock wallClock) {
    this.fs = fs;
    this.basePath = basePath;
    this.timelineDir = timelineDir;
    this.tempDir = tempDir;
    this.clock = new InstantClock(wallClock);
  }

  /**
   * Checks {@code fence} before publishing any instant or plan file from now on (the writer lease,
   * rfc/0004).
   */
  public void fenceWith(Fence fence) {
    this.fence = fence;
  }

  /** Publishes {@code target} with one rename, once the fence (if any) lets it. */
  private boolean publish(Path target, AtomicFile.Content content) throws IOException {
    Fence current = fence;
    if (current != null) {
      current.check(target.getName());
    }
    return AtomicFile.publish(fs, tempDir, target, content);
  }

  /** Starts a new deltacommit: a fresh instant time with its requested and inflight files. */
  public String startInstant() {
    String instant = clock.next(scan().latestTime(), InstantIssuer.DELTA_COMMITS);
    try {
      fs.create(new Path(timelineDir, instant + REQUESTED), false).close();
      fs.create(new Path(timelineDir, instant + INFLIGHT), false).close();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start instant " + instant + " in " + timelineDir, e);
    }
    return instant;
  }

  /**
   * A requested time of {@code issuer}, later than every time on the timeline and every time this
   * timeline issued; a completion time {@link #complete} issues afterwards is later still.
   */
  public String newInstantTime(InstantIssuer issuer) {
    return clock.next(scan().latestTime(), issuer);
  }

  /**
   * Publishes {@code C.compaction.requested} holding {@code plan} with one rename.
   *
   * @throws IllegalStateException if that file exists already
   */
  public void requestCompaction(String instant, byte[] plan) {
    Path target = new Path(timelineDir, instant + COMPACTION_REQUESTED);
    try {
      if (!publish(target, out -> out.write(plan))) {
        throw new IllegalStateException("compaction plan " + target + " exists already");
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write compaction plan " + target, e);
    }
  }

  /** Writes {@code C.compaction.inflight} unless it exists: the compaction has started. */
  public void startCompaction(String instant) {
    createEmpty(new Path(timelineDir, instant + COMPACTION_INFLIGHT), "compaction");
  }

  /**
   * Publishes {@code T.clean.requested} holding {@code plan} with one rename.
   *
   * @throws IllegalStateException if that file exists already
   */
  public void requestClean(String instant, byte[] plan) {
    Path target = new Path(timelineDir, instant + CLEAN_REQUESTED);
    try {
      if (!publish(target, out -> out.write(plan))) {
        throw new IllegalStateException("cleaner plan " + target + " exists already");
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write cleaner plan " + target, e);
    }
  }

  /** The path of {@code T.clean.requested}, the plan of clean {@code instant}. */
  public Path cleanPlan(String instant) {
    return new Path(timelineDir, instant + CLEAN_REQUESTED);
  }

  /** Writes {@code T.clean.inflight} unless it exists: the clean has started deleting. */
  public void startClean(String instant) {
    createEmpty(new Path(timelineDir, instant + CLEAN_INFLIGHT), "clean");
  }

  /**
   * Completes clean {@code instant}: publishes {@code T_X.clean} holding {@code metadata} (Avro
   * clean metadata) with one rename. A no-op if it is completed already.
   *
   * @throws IllegalStateException if the clean was never requested
   */
  public void completeClean(String instant, byte[] metadata) {
    Instants instants = scan();
    if (instants.completedCleans.contains(instant)) {
      return;
    }
    if (!instants.requestedCleans.contains(instant)) {
      throw new IllegalStateException(
          "cannot complete clean " + instant + ": no plan " + instant + CLEAN_REQUESTED);
    }
    String completion = clock.next(instants.latestTime());
    Path target = new Path(timelineDir, instant + "_" + completion + CLEAN);
    try {
      publish(target, out -> out.write(metadata));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot complete clean " + instant + " at " + target, e);
    }
  }

  private void createEmpty(Path file, String action) {
    try {
      if (!fs.exists(file)) {
        fs.create(file, true).close();
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start " + action + " " + file, e);
    }
  }

  /**
   * Commits compaction {@code instant}: publishes {@code C_X.commit} with one write stat per base
   * file, then deletes its markers ({@code .hoodie/.temp/C}). A no-op if it is completed already.
   *
   * @throws IllegalStateException if the compaction was never requested
   */
  public void completeCompaction(
      String instant, List<CompactionWriteStat> stats, String writerSchemaJson) {
    Instants instants = scan();
    if (instants.completedCommits.contains(instant)) {
      return;
    }
    if (!instants.requestedCompactions.contains(instant)) {
      throw new IllegalStateException(
          "cannot complete compaction " + instant + ": no plan " + instant + COMPACTION_REQUESTED);
    }
    String completion = clock.next(instants.latestTime());
    Path target = new Path(timelineDir, instant + "_" + completion + COMMIT);
    try {
      publish(target, out -> CommitMetadataFile.writeCompaction(out, stats, writerSchemaJson));
      fs.delete(markerDir(instant), true);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot complete compaction " + instant + " at " + target, e);
    }
  }

  /**
   * Removes pending compaction {@code instant} as if it had never been planned: the base files its
   * markers name, whole or partial (no reader saw them while it was pending), its markers, then its
   * inflight and requested files. Hudi 1.x does this in two steps: a rollback of the inflight
   * compaction, then {@code CompactionAdminClient.unscheduleCompactionPlan}, which removes the
   * requested plan (keeping a copy in {@code .hoodie/.aux}). Its slices' logs stay where they are;
   * at table version 9 file slicing by completion time puts them back into the slices they extend.
   * Each step can be repeated: a run that dies half way leaves a plan that is still pending, whose
   * next attempt redoes its files.
   *
   * @throws IllegalStateException if the compaction is completed
   */
  public void unscheduleCompaction(String instant) {
    if (scan().completedCommits.contains(instant)) {
      throw new IllegalStateException("cannot unschedule compaction " + instant + ": it committed");
    }
    Path requested = new Path(timelineDir, instant + COMPACTION_REQUESTED);
    Fence current = fence;
    if (current != null) {
      current.check(requested.getName());
    }
    Path markers = fs.makeQualified(markerDir(instant));
    try {
      if (fs.exists(markers)) {
        RemoteIterator<LocatedFileStatus> files = fs.listFiles(markers, true);
        while (files.hasNext()) {
          Path marker = files.next().getPath();
          String name = marker.getName();
          if (!name.endsWith(MERGE_MARKER_SUFFIX)) {
            continue;
          }
          String relative = markers.toUri().relativize(marker.getParent().toUri()).getPath();
          Path partition = relative.isEmpty() ? basePath : new Path(basePath, relative);
          fs.delete(
              new Path(partition, name.substring(0, name.length() - MERGE_MARKER_SUFFIX.length())),
              false);
        }
        fs.delete(markers, true);
      }
      fs.delete(new Path(timelineDir, instant + COMPACTION_INFLIGHT), false);
      fs.delete(requested, false);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot unschedule compaction " + instant, e);
    }
  }

  /**
   * The folder of compaction {@code instant}'s markers, {@code .hoodie/.temp/C}: one empty {@code
   * <partition>/<baseFileName>.marker.MERGE} per base file, written before the file is created.
   */
  public Path markerDir(String instant) {
    return new Path(tempDir, instant);
  }

  /**
   * Deletes staged files that publishes left in {@code .hoodie/.temp} when their process died
   * before the rename finished, if they are older than {@code age} (a publish under way is never
   * that old); markers and other files there are kept.
   *
   * @return the files deleted
   */
  public int deletePublishLeftovers(Duration age) throws IOException {
    return AtomicFile.deleteLeftovers(fs, tempDir, System.currentTimeMillis() - age.toMillis());
  }

  /**
   * The folder of staged instant files and of every compaction's markers, {@code .hoodie/.temp}.
   */
  public Path tempDir() {
    return tempDir;
  }

  /** The folder of the instant files, {@code .hoodie/timeline}. */
  public Path timelineDir() {
    return timelineDir;
  }

  public boolean isCompleted(String instant) {
    return scan().completed.containsKey(instant);
  }

  /** Requested times of deltacommits that are started but not completed, oldest first. */
  public List<String> pendingInstants() {
    return scan().pending();
  }

  /** Requested times of completed deltacommits, oldest first. */
  public List<String> completedInstants() {
    return new ArrayList<>(scan().completed.keySet());
  }

  /**
   * Commits {@code instant}: publishes {@code T_C.deltacommit} with one write stat per log file and
   * {@code writerSchemaJson} (Avro, without meta fields) as the table schema. A no-op if the
   * instant is already completed, or archived (older than the timeline, e.g. held by an old
   * savepoint), so a restored committer can repeat it.
   *
   * @throws IllegalStateException if the instant was never started or has been aborted
   */
  public void complete(String instant, List<WriteStat> stats, String writerSchemaJson) {
    Instants instants = scan();
    if (instants.completed.containsKey(instant) || instants.isArchived(instant)) {
      return;
    }
    if (!instants.started.contains(instant)) {
      throw new IllegalStateException(
          "cannot complete instant "
              + instant
              + ": it has no requested or inflight file in "
              + timelineDir
              + " (never started, or aborted)");
    }
    String completion = clock.next(instants.latestTime());
    Path target = new Path(timelineDir, instant + "_" + completion + ACTION);
    try {
      publish(target, out -> CommitMetadataFile.write(out, instant, stats, writerSchemaJson));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot complete instant " + instant + " at " + target, e);
    }
  }

  /**
   * Removes an uncommitted instant: its log files in every partition (their names carry the
   * instant), then its inflight and requested files. Afterwards the instant has left no trace.
   *
   * @throws IllegalStateException if the instant is completed
   */
  public void abort(String instant) {
    if (isCompleted(instant)) {
      throw new IllegalStateException("cannot abort instant " + instant + ": it is completed");
    }
    try {
      if (!fs.exists(new Path(timelineDir, instant + REQUESTED))) {
        // Gone after the listing said "not completed": the archiver deletes an instant's
        // requested file before its completed file, and abort deletes it last; either way there
        // is nothing of a failed attempt left to delete.
        return;
      }
      FileDeletes.delete(fs, logFilesOf(instant));
      fs.delete(new Path(timelineDir, instant + INFLIGHT), false);
      fs.delete(new Path(timelineDir, instant + REQUESTED), false);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot abort instant " + instant, e);
    }
  }

  /** Log files named with {@code instant}, anywhere below the base path outside {@code .hoodie}. */
  List<Path> logFilesOf(String instant) throws IOException {
    String marker = "_" + instant + ".log.";
    List<Path> files = new ArrayList<>();
    for (DataFiles.DataFile file : DataFiles.list(fs, basePath)) {
      String name = file.name();
      int at = name.indexOf(marker);
      if (name.startsWith(".") && at > 0 && name.indexOf('_') == at) {
        files.add(file.status().getPath());
      }
    }
    return files;
  }

  private Instants scan() {
    Instants instants = new Instants();
    try {
      for (FileStatus status : fs.listStatus(timelineDir)) {
        instants.add(status.getPath().getName());
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list timeline " + timelineDir, e);
    }
    return instants;
  }

  /**
   * What one listing of the timeline directory holds: deltacommits by requested time, and the
   * highest time in any instant file name (other actions too, e.g. a Hudi writer's compaction).
   */
  private static final class Instants {
    final TreeSet<String> started = new TreeSet<>();
    final TreeMap<String, String> completed = new TreeMap<>();
    final TreeSet<String> requestedCompactions = new TreeSet<>();
    final TreeSet<String> completedCommits = new TreeSet<>();
    final TreeSet<String> requestedCleans = new TreeSet<>();
    final TreeSet<String> completedCleans = new TreeSet<>();
    private String latestTime = "0";

    void add(String fileName) {
      int dot = fileName.indexOf('.');
      if (dot <= 0 || !Character.isDigit(fileName.charAt(0))) {
        return;
      }
      String times = fileName.substring(0, dot);
      int underscore = times.indexOf('_');
      String requested = underscore < 0 ? times : times.substring(0, underscore);
      String completion = underscore < 0 ? null : times.substring(underscore + 1);
      latestTime = max(latestTime, completion == null ? requested : max(requested, completion));
      if (fileName.endsWith(REQUESTED) || fileName.endsWith(INFLIGHT)) {
        started.add(requested);
      } else if (fileName.endsWith(ACTION) && completion != null) {
        completed.put(requested, completion);
      } else if (fileName.endsWith(COMPACTION_REQUESTED)) {
        requestedCompactions.add(requested);
      } else if (fileName.endsWith(COMMIT) && completion != null) {
        completedCommits.add(requested);
      } else if (fileName.endsWith(CLEAN_REQUESTED)) {
        requestedCleans.add(requested);
      } else if (fileName.endsWith(CLEAN) && completion != null) {
        completedCleans.add(requested);
      }
    }

    /**
     * Whether {@code instant} is older than every delta commit on the timeline while not on it:
     * then the archiver moved it, and it was completed (the archiver never moves a pending one).
     */
    boolean isArchived(String instant) {
      String oldest = oldestDeltaCommit();
      return oldest != null
          && instant.compareTo(oldest) < 0
          && !started.contains(instant)
          && !completed.containsKey(instant);
    }

    private String oldestDeltaCommit() {
      String oldestStarted = started.isEmpty() ? null : started.first();
      String oldestCompleted = completed.isEmpty() ? null : completed.firstKey();
      if (oldestStarted == null || oldestCompleted == null) {
        return oldestStarted == null ? oldestCompleted : oldestStarted;
      }
      return oldestStarted.compareTo(oldestCompleted) <= 0 ? oldestStarted : oldestCompleted;
    }

    /** The highest requested or completion time on the timeline, "0" when it is empty. */
    String latestTime() {
      return latestTime;
    }

    private static String max(String a, String b) {
      return a.compareTo(b) >= 0 ? a : b;
    }

    List<String> pending() {
      List<String> pending = new ArrayList<>();
      for (String instant : started) {
        if (!completed.containsKey(instant)) {
          pending.add(instant);
        }
      }
      return pending;
    }
  }
}
