package dev.mortar.writer.options;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** A compaction is due by delta commits, or by time once any delta commit completed since. */
class CompactionTriggerTest {
  private static final String LATEST = "20261126100000000";

  @Test
  void byDeltaCommitsOnly() {
    CompactionTrigger trigger = new CompactionTrigger(5, null);
    assertThat(trigger.isDue(4, LATEST, "20261127100000000")).isFalse();
    assertThat(trigger.isDue(5, LATEST, "20261126100000001")).isTrue();
    assertThat(trigger.isDue(5, null, "20261126100000001")).isTrue();
  }

  @Test
  void byTimeOnceADeltaCommitCompletedSince() {
    CompactionTrigger trigger = new CompactionTrigger(5, Duration.ofMinutes(10));
    assertThat(trigger.isDue(1, LATEST, "20261126100959999")).as("9:59.999 later").isFalse();
    assertThat(trigger.isDue(1, LATEST, "20261126101000000")).as("10 min later").isTrue();
    assertThat(trigger.isDue(0, LATEST, "20261126120000000")).as("nothing to compact").isFalse();
    assertThat(trigger.isDue(1, null, "20261126120000000")).as("nothing to count from").isFalse();
    assertThat(trigger.isDue(2, LATEST, "20261127000000000")).as("over midnight").isTrue();
  }
}
