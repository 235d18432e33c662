package dev.mortar.serde.testutil;

import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Seeds of randomized tests: {@code -Dmortar.seed=N} pins every seed to N, otherwise each call
 * draws a fresh one. Every seed is logged with the line that re-runs it.
 */
public final class Seeds {
  /** System property that pins the seed of every randomized test. */
  public static final String PROPERTY = "mortar.seed";

  private static final Logger LOG = LoggerFactory.getLogger(Seeds.class);

  private Seeds() {}

  /** The seed for {@code what}: the pinned one, or a new random one; logged either way. */
  public static long seed(String what) {
    String pinned = System.getProperty(PROPERTY);
    long seed = pinned != null ? Long.parseLong(pinned) : ThreadLocalRandom.current().nextLong();
    LOG.info("{}: seed {} (re-run with -D{}={})", what, seed, PROPERTY, seed);
    return seed;
  }

  /** An int system property, for sizing randomized tests (e.g. {@code -Dmortar.serde.schemas}). */
  public static int size(String property, int defaultValue) {
    return Integer.getInteger(property, defaultValue);
  }
}
