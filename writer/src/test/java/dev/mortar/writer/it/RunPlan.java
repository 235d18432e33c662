package dev.mortar.writer.it;

import dev.mortar.buffer.Deduplication;
import dev.mortar.logformat.LogBlockFormat;
import dev.mortar.writer.it.Failures.Plan;
import dev.mortar.writer.it.Failures.Point;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * What one run of the failure {@link Campaign} does, drawn from its seed alone (the same seed draws
 * the same run): the job's shape (parallelism, partitioning, ordering, block format,
 * de-duplication, heap or off-heap pages, buffer sizes, table services), its changelog, the failure
 * points armed before the interruption, the interruption itself, the shape of the job restored
 * after it (another parallelism, other buffers) and the failure points armed in the restored job.
 */
record RunPlan(
    long seed,
    SinkJob job,
    Changelog changelog,
    boolean sql,
    List<Plan> faultsBefore,
    Interruption interruption,
    int commitsBeforeInterruption,
    SinkJob restored,
    List<Plan> faultsAfter) {

  /** How the first job ends before the table is finished by a restored one. */
  enum Interruption {
    /** The job runs to its end; only its injected failures (and Flink's restarts) interrupt it. */
    NONE,
    /** Stop with a savepoint, then a job of the restored shape starts from it. */
    SAVEPOINT,
    /** Cancel, then restore from the newest retained checkpoint. */
    NEWEST_CHECKPOINT,
    /** Cancel, then restore from the oldest retained checkpoint: its later rows come again. */
    OLDER_CHECKPOINT,
    /**
     * The job runs in a process of its own ({@link JobProcess}) that is killed with SIGKILL after
     * the plan's commits or, if the plan arms a failure point before the interruption, halts at
     * that point as SIGKILL would there; a job in this JVM restores from the newest retained
     * checkpoint, or starts afresh if the process retained none (after releasing the dead process's
     * writer lease, as a user would with {@code bin/lease --release}).
     */
    KILLED_PROCESS,
    /**
     * The job runs on a standalone cluster (JobManager and TaskManager in JVMs of their own) whose
     * TaskManager is killed with SIGKILL; a new one joins and the job restores its own last
     * checkpoint.
     */
    TASK_MANAGER_KILLED;

    /** Whether the first job runs outside this JVM, where no failure point can throw. */
    boolean inOtherProcesses() {
      return this == KILLED_PROCESS || this == TASK_MANAGER_KILLED;
    }
  }

  private static final int CHANGES = 800;
  private static final List<Point> COMPACTION_POINTS =
      List.of(Point.BASE_FILE_CREATE, Point.BASE_FILE_BYTES, Point.COMPACTION_COMMIT_PUBLISH);
  private static final List<Point> TABLE_SERVICE_POINTS =
      List.of(Point.CLEAN_DELETE, Point.ARCHIVE_CREATE, Point.ARCHIVE_DELETE);

  /**
   * Draws the run of {@code seed} on the table at {@code path}. A job that cleans and archives is
   * interrupted after 9 to 16 of its about 20 commits, when its archiver (beyond 8) and cleaner are
   * at work; any other after 2 to 4. Checkpoint alignment, then the write tasks' flush threads, are
   * drawn last, for the first job and the restored one apart, so a seed of an earlier report draws
   * the same run, with an alignment and flush threads.
   */
  static RunPlan draw(long seed, String path, boolean killedProcesses) {
    SplittableRandom random = new SplittableRandom(seed);
    int services = random.nextInt(4);
    boolean compacts = services >= 2;
    boolean cleansAndArchives = services == 3;
    SinkJob.Builder shape =
        SinkJob.at(path)
            .parallelism(1 + random.nextInt(3))
            .partitioned(random.nextBoolean())
            .ordering(random.nextBoolean())
            .format(random.nextBoolean() ? LogBlockFormat.AVRO : LogBlockFormat.PARQUET)
            .deduplication(random.nextBoolean() ? Deduplication.ON_READ : Deduplication.ON_APPEND)
            .offHeap(random.nextBoolean())
            .managedMemory(random.nextInt(3) == 0)
            .smallBuffers(random.nextInt(3) == 0)
            .buckets(2 + random.nextInt(3))
            .perCheckpoint(cleansAndArchives ? 40 : 60 + random.nextInt(90))
            .compactEvery(compacts ? 2 : 0)
            .restarts(true);
    if (cleansAndArchives) {
      shape.cleanRetainCommits(2).archiveBeyond(8);
    }
    SinkJob job = shape.build();
    Changelog drawn = Changelog.random(seed, CHANGES, 100 + random.nextInt(300), 100, 30);
    Changelog changelog = compacts ? drawn.withoutStaleChangesAfterDeletes() : drawn;

    List<Point> points = new ArrayList<>(Point.WRITE_PATH);
    if (compacts) {
      points.addAll(COMPACTION_POINTS);
    }
    if (cleansAndArchives) {
      points.addAll(TABLE_SERVICE_POINTS);
    }
    Interruption interruption = drawInterruption(random, killedProcesses);
    List<Plan> faultsBefore =
        interruption.inOtherProcesses() ? List.of() : drawFaults(points, random.nextInt(3), random);
    SinkJob restored =
        interruption == Interruption.TASK_MANAGER_KILLED
            ? job
            : job.toBuilder()
                .parallelism(1 + random.nextInt(3))
                .smallBuffers(random.nextInt(3) == 0)
                .offHeap(random.nextBoolean())
                .managedMemory(random.nextInt(3) == 0)
                .format(random.nextInt(4) == 0 ? otherFormat(job.format()) : job.format())
                .build();
    List<Plan> faultsAfter =
        interruption == Interruption.NONE || interruption == Interruption.TASK_MANAGER_KILLED
            ? List.of()
            : drawFaults(points, random.nextInt(2), random);
    if (interruption == Interruption.KILLED_PROCESS && random.nextBoolean()) {
      faultsBefore = drawFaults(points, 1, random);
    }
    boolean sql = interruption == Interruption.NONE && random.nextInt(4) == 0;
    int commitsBeforeInterruption =
        cleansAndArchives ? 9 + random.nextInt(8) : 2 + random.nextInt(3);
    boolean unaligned = random.nextInt(3) == 0;
    boolean restoredUnaligned =
        interruption == Interruption.TASK_MANAGER_KILLED ? unaligned : random.nextInt(3) == 0;
    int flushThreads = random.nextBoolean() ? 1 : 2 + random.nextInt(3);
    int restoredFlushThreads =
        interruption == Interruption.TASK_MANAGER_KILLED
            ? flushThreads
            : random.nextBoolean() ? 1 : 2 + random.nextInt(3);
    return new RunPlan(
        seed,
        job.toBuilder()
            .unalignedCheckpoints(unaligned)
            .keyedInput(unaligned)
            .flushThreads(flushThreads)
            .build(),
        changelog,
        sql,
        faultsBefore,
        interruption,
        commitsBeforeInterruption,
        restored.toBuilder()
            .unalignedCheckpoints(restoredUnaligned)
            .keyedInput(unaligned)
            .flushThreads(restoredFlushThreads)
            .build(),
        faultsAfter);
  }

  /**
   * Each interruption in this JVM twice as often as each kind of killed process (whose JVMs cost
   * seconds to start); with {@code killedProcesses} false, none of those.
   */
  private static Interruption drawInterruption(SplittableRandom random, boolean killedProcesses) {
    int draw = random.nextInt(killedProcesses ? 10 : 8);
    return switch (draw) {
      case 8 -> Interruption.KILLED_PROCESS;
      case 9 -> Interruption.TASK_MANAGER_KILLED;
      default -> Interruption.values()[draw / 2];
    };
  }

  /** {@code count} failure points of different kinds from {@code points}, at random counts. */
  private static List<Plan> drawFaults(List<Point> points, int count, SplittableRandom random) {
    List<Point> left = new ArrayList<>(points);
    List<Plan> plans = new ArrayList<>();
    while (plans.size() < count) {
      plans.add(Plan.random(left.remove(random.nextInt(left.size())), CHANGES, random));
    }
    return plans;
  }

  private static LogBlockFormat otherFormat(LogBlockFormat format) {
    return format == LogBlockFormat.AVRO ? LogBlockFormat.PARQUET : LogBlockFormat.AVRO;
  }

  /** Whether the first job's process halts at its failure point instead of being killed. */
  boolean haltsAtFault() {
    return interruption == Interruption.KILLED_PROCESS && !faultsBefore.isEmpty();
  }

  /** Whether the restored job runs with another write parallelism than the first. */
  boolean rescales() {
    return interruption != Interruption.NONE && restored.parallelism() != job.parallelism();
  }

  /** One line a person reads in the report. */
  String describe() {
    StringBuilder text =
        new StringBuilder()
            .append("P=")
            .append(job.parallelism())
            .append(job.partitioned() ? ", partitioned" : "")
            .append(job.ordering() ? ", ordering" : "")
            .append(", ")
            .append(job.format())
            .append(", ")
            .append(job.deduplication())
            .append(job.offHeap() ? ", off-heap" : "")
            .append(job.managedMemory() ? ", managed memory" : "")
            .append(job.smallBuffers() ? ", small buffers" : "")
            .append(job.unalignedCheckpoints() ? ", unaligned checkpoints, keyed input" : "")
            .append(flushThreads(job))
            .append(", ")
            .append(job.buckets())
            .append(" buckets")
            .append(job.compactionDeltaCommits() > 0 ? ", compaction every 2" : "")
            .append(job.cleanRetainCommits() > 0 ? ", clean + archive" : "")
            .append(sql ? ", SQL" : "");
    if (interruption == Interruption.TASK_MANAGER_KILLED) {
      text.append("; on a standalone cluster, TaskManager killed after ")
          .append(commitsBeforeInterruption)
          .append(" commits");
    } else if (interruption != Interruption.NONE) {
      text.append("; then ")
          .append(interruption)
          .append(
              haltsAtFault()
                  ? " at its failure point"
                  : " after " + commitsBeforeInterruption + " commits")
          .append(", restored at P=")
          .append(restored.parallelism())
          .append(restored.format() != job.format() ? ", " + restored.format() : "")
          .append(restored.smallBuffers() ? ", small buffers" : "")
          .append(restored.offHeap() ? ", off-heap" : "")
          .append(restored.managedMemory() ? ", managed memory" : "")
          .append(restored.unalignedCheckpoints() ? ", unaligned checkpoints" : "")
          .append(flushThreads(restored));
    }
    return text.toString();
  }

  private static String flushThreads(SinkJob job) {
    return job.flushThreads() > 1 ? ", " + job.flushThreads() + " flush threads" : "";
  }
}
