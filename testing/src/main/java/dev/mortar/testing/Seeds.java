package dev.mortar.testing;

import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.LongStream;

/**
 * Seeds of randomized tests. {@code -Dmortar.seed=N} pins every seed to N; otherwise each call
 * draws a fresh one. Every seed is printed with the flag that re-runs it, on standard output, which
 * Surefire keeps beside the test's report whatever a module's logging configuration says.
 */
public final class Seeds {
  /** System property that pins the seed of every randomized test. */
  public static final String PROPERTY = "mortar.seed";

  private Seeds() {}

  /** The seed for {@code test}: the pinned one, or a fresh one; printed either way. */
  public static long seed(String test) {
    Long pinned = Long.getLong(PROPERTY);
    long seed = pinned != null ? pinned : ThreadLocalRandom.current().nextLong();
    System.out.println(test + ": seed " + seed + " (re-run with -D" + PROPERTY + "=" + seed + ")");
    return seed;
  }

  /**
   * Seeds for {@code runs} runs of one test: the pinned seed alone (a failed run re-runs by
   * itself), or {@code runs} fresh ones. The caller prints each with its run (a parameterized
   * test's name).
   */
  public static LongStream seeds(int runs) {
    Long pinned = Long.getLong(PROPERTY);
    if (pinned != null) {
      return LongStream.of(pinned);
    }
    return ThreadLocalRandom.current().longs(runs);
  }

  /** A size of a randomized test from an int system property, e.g. {@code -Dmortar.serde.rows}. */
  public static int size(String property, int defaultValue) {
    return Integer.getInteger(property, defaultValue);
  }
}
