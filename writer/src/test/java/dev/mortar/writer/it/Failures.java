package dev.mortar.writer.it;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Failure points armed for the job running in this JVM's MiniCluster, fired one after the other:
 * each fires once, then the next is armed (its count starts at zero) and the restarted job runs on
 * until it fires too. Armed {@link #armHalting halting}, the first point that fires ends the JVM
 * there, as SIGKILL would: no exception, no {@code close()}, nothing flushed.
 */
final class Failures {
  /** The exit status of a JVM a halting failure point ended (SIGKILL's 128 + 9). */
  static final int HALTED = 137;

  enum Point {
    /** The source throws before emitting the change at this offset (rows buffered are lost). */
    SOURCE_OFFSET,
    /** A log file stream throws once this many log bytes have been written (inside a write). */
    LOG_BYTES,
    /** Creating the n-th log file throws (at the start of a flush). */
    LOG_CREATE,
    /** Publishing the n-th commit file throws: the checkpoint completed, its commit is missing. */
    COMMIT_PUBLISH,
    /** Creating the n-th base file throws (its marker is written, the compaction task fails). */
    BASE_FILE_CREATE,
    /** A base file stream throws once this many base file bytes have been written (mid file). */
    BASE_FILE_BYTES,
    /**
     * Publishing the n-th compaction commit file throws: every base file of the plan is written,
     * its {@code C_X.commit} is missing.
     */
    COMPACTION_COMMIT_PUBLISH,
    /**
     * The cleaner's n-th file deletion throws: its plan and inflight instant are on disk, some of
     * its files deleted.
     */
    CLEAN_DELETE,
    /**
     * Creating the n-th file of the archived timeline throws (a data file, a manifest or the
     * version file): the archive's new snapshot is not yet or only half published.
     */
    ARCHIVE_CREATE,
    /**
     * The archiver's n-th deletion of an active timeline file throws: the archive already holds the
     * instant, the active timeline still holds some of its files.
     */
    ARCHIVE_DELETE;

    /** The points of the write path, which fire in jobs that do not compact. */
    static final List<Point> WRITE_PATH =
        List.of(SOURCE_OFFSET, LOG_BYTES, LOG_CREATE, COMMIT_PUBLISH);
  }

  /** Fire at the {@code at}-th event (or byte, or offset) of {@code point}. */
  record Plan(Point point, long at) implements Serializable {
    /**
     * A failure of {@code point} at a random count that every job writing {@code changes} changes
     * reaches (compaction points: if it compacts every few delta commits; clean and archive points:
     * if it also retains few commits).
     */
    static Plan random(Point point, int changes, SplittableRandom random) {
      return new Plan(
          point,
          switch (point) {
            case SOURCE_OFFSET -> 1 + random.nextInt(changes - 1);
            case LOG_CREATE, BASE_FILE_CREATE -> 1 + random.nextInt(4);
            case LOG_BYTES, BASE_FILE_BYTES -> 100 + random.nextInt(4000);
            case COMMIT_PUBLISH, COMPACTION_COMMIT_PUBLISH -> 1 + random.nextInt(2);
            case CLEAN_DELETE, ARCHIVE_DELETE -> 1 + random.nextInt(8);
            case ARCHIVE_CREATE -> 1 + random.nextInt(3);
          });
    }
  }

  /** A failure that fired: at which count, and on which file ({@code null} for the source). */
  record Fired(Point point, long at, String file) implements Serializable {
    @Override
    public String toString() {
      return point + " at " + at + (file == null ? "" : " on " + file);
    }
  }

  private static final AtomicReference<Plan> PLAN = new AtomicReference<>();
  private static final AtomicLong COUNTER = new AtomicLong();
  private static final Deque<Plan> NEXT = new ArrayDeque<>();
  private static final List<Fired> FIRED = new ArrayList<>();
  private static volatile Path haltRecord;

  private Failures() {}

  static synchronized void arm(List<Plan> plans) {
    NEXT.clear();
    NEXT.addAll(plans);
    FIRED.clear();
    armNext();
  }

  private static synchronized void armNext() {
    COUNTER.set(0);
    PLAN.set(NEXT.poll());
  }

  /**
   * Arms {@code plan} so that it halts this JVM when it fires, after writing what fired to {@code
   * record} (for the process that watches this one).
   */
  static synchronized void armHalting(Plan plan, Path record) {
    arm(List.of(plan));
    haltRecord = record;
  }

  static synchronized void disarm() {
    NEXT.clear();
    PLAN.set(null);
  }

  /** Whether a failure point is still armed or waiting to be armed. */
  static synchronized boolean pending() {
    return PLAN.get() != null || !NEXT.isEmpty();
  }

  /** What fired so far, in order. */
  static synchronized List<Fired> fired() {
    return new ArrayList<>(FIRED);
  }

  private static InjectedFailure fire(Plan plan, long value, String file) {
    Fired fired = new Fired(plan.point, value, file);
    Path record = haltRecord;
    if (record != null) {
      halt(fired, record);
    }
    synchronized (Failures.class) {
      FIRED.add(fired);
      armNext();
    }
    return new InjectedFailure(fired.toString());
  }

  private static void halt(Fired fired, Path record) {
    try (ObjectOutputStream out = new ObjectOutputStream(Files.newOutputStream(record))) {
      out.writeObject(fired);
    } catch (IOException e) {
      e.printStackTrace();
    }
    Runtime.getRuntime().halt(HALTED);
  }

  /** What a halting failure point wrote to {@code record} before it ended its JVM. */
  static Fired readHaltRecord(Path record) throws IOException {
    try (ObjectInputStream in = new ObjectInputStream(Files.newInputStream(record))) {
      return (Fired) in.readObject();
    } catch (ClassNotFoundException e) {
      throw new IOException("halt record " + record + " holds an unknown class", e);
    }
  }

  /** Fires when {@code value} reaches the armed value of {@code point}. */
  static void maybeFail(Point point, long value) {
    Plan plan = PLAN.get();
    if (plan != null && plan.point == point && value >= plan.at && PLAN.compareAndSet(plan, null)) {
      throw fire(plan, value, null);
    }
  }

  /**
   * Counts one event (or {@code amount} bytes) of {@code point} on {@code file}; fires when the
   * count passes.
   */
  static void count(Point point, long amount, String file) throws InjectedFailure {
    Plan plan = PLAN.get();
    if (plan == null || plan.point != point) {
      return;
    }
    long total = COUNTER.addAndGet(amount);
    if (total >= plan.at && PLAN.compareAndSet(plan, null)) {
      throw fire(plan, total, file);
    }
  }

  /** The injected failure. */
  static final class InjectedFailure extends RuntimeException {
    InjectedFailure(String message) {
      super("injected failure: " + message);
    }
  }
}
