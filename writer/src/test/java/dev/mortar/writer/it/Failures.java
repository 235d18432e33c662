package dev.mortar.writer.it;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Failure points armed for the job running in this JVM's MiniCluster, fired one after the other:
 * each fires once, then the next is armed (its count starts at zero) and the restarted job runs on
 * until it fires too.
 */
final class Failures {
  enum Point {
    /** The source throws before emitting the change at this offset (rows buffered are lost). */
    SOURCE_OFFSET,
    /** A log file stream throws once this many log bytes have been written (inside a write). */
    LOG_BYTES,
    /** Creating the n-th log file throws (at the start of a flush). */
    LOG_CREATE,
    /** Publishing the n-th commit file throws: the checkpoint completed, its commit is missing. */
    COMMIT_PUBLISH
  }

  /** Fire at the {@code at}-th event (or byte, or offset) of {@code point}. */
  record Plan(Point point, long at) {}

  private static final AtomicReference<Plan> PLAN = new AtomicReference<>();
  private static final AtomicLong COUNTER = new AtomicLong();
  private static final Deque<Plan> NEXT = new ArrayDeque<>();
  private static final List<String> FIRED = new ArrayList<>();

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

  static synchronized void disarm() {
    NEXT.clear();
    PLAN.set(null);
  }

  /** Whether a failure point is still armed or waiting to be armed. */
  static synchronized boolean pending() {
    return PLAN.get() != null || !NEXT.isEmpty();
  }

  /** What fired so far, in order. */
  static synchronized List<String> fired() {
    return new ArrayList<>(FIRED);
  }

  private static InjectedFailure fire(Plan plan, long value) {
    String what = plan.point + " at " + value;
    synchronized (Failures.class) {
      FIRED.add(what);
      armNext();
    }
    return new InjectedFailure(what);
  }

  /** Fires when {@code value} reaches the armed value of {@code point}. */
  static void maybeFail(Point point, long value) {
    Plan plan = PLAN.get();
    if (plan != null && plan.point == point && value >= plan.at && PLAN.compareAndSet(plan, null)) {
      throw fire(plan, value);
    }
  }

  /** Counts one event (or {@code amount} bytes) of {@code point}; fires when the count passes. */
  static void count(Point point, long amount) throws InjectedFailure {
    Plan plan = PLAN.get();
    if (plan == null || plan.point != point) {
      return;
    }
    long total = COUNTER.addAndGet(amount);
    if (total >= plan.at && PLAN.compareAndSet(plan, null)) {
      throw fire(plan, total);
    }
  }

  /** The injected failure. */
  static final class InjectedFailure extends RuntimeException {
    InjectedFailure(String message) {
      super("injected failure: " + message);
    }
  }
}
