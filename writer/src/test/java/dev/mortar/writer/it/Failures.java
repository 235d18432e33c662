package dev.mortar.writer.it;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One armed failure point for the job running in this JVM's MiniCluster. It fires once: the
 * restarted job then runs past it. Counted points count events since arming.
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

  private record Plan(Point point, long at) {}

  private static final AtomicReference<Plan> PLAN = new AtomicReference<>();
  private static final AtomicLong COUNTER = new AtomicLong();

  private Failures() {}

  static void arm(Point point, long at) {
    COUNTER.set(0);
    PLAN.set(new Plan(point, at));
  }

  static void disarm() {
    PLAN.set(null);
  }

  static boolean fired() {
    return PLAN.get() == null;
  }

  /** Fires when {@code value} reaches the armed value of {@code point}. */
  static void maybeFail(Point point, long value) {
    Plan plan = PLAN.get();
    if (plan != null && plan.point == point && value >= plan.at && PLAN.compareAndSet(plan, null)) {
      throw new InjectedFailure(point + " at " + value);
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
      throw new InjectedFailure(point + " at " + total);
    }
  }

  /** The injected failure. */
  static final class InjectedFailure extends RuntimeException {
    InjectedFailure(String message) {
      super("injected failure: " + message);
    }
  }
}
