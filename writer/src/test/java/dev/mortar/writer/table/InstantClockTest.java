package dev.mortar.writer.table;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mortar.testing.Seeds;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Random;
import org.junit.jupiter.api.Test;

class InstantClockTest {
  private static final Instant NOON = Instant.parse("2026-11-22T12:00:00.000Z");
  private static final ZoneId UTC = ZoneId.of("UTC");

  @Test
  void issuersReadingTheSameMillisecondIssueDifferentTimes() {
    Clock frozen = Clock.fixed(NOON, UTC);
    List<String> times = new ArrayList<>();
    for (InstantIssuer issuer : InstantIssuer.values()) {
      times.add(new InstantClock(frozen).next("0", issuer));
    }
    assertThat(times)
        .containsExactly("20261122120000000", "20261122120000001", "20261122120000002");
  }

  @Test
  void aRequestedTimeIsTheIssuersNextMillisecondAboveTheFloor() {
    InstantClock clock = new InstantClock(Clock.fixed(NOON, UTC));
    assertThat(clock.next("20261122120000000", InstantIssuer.DELTA_COMMITS))
        .isEqualTo("20261122120000003");
    assertThat(clock.next("20261122120000000", InstantIssuer.DELTA_COMMITS))
        .as("above its own last time")
        .isEqualTo("20261122120000006");
    assertThat(clock.next("20261122120000999", InstantIssuer.CLEAN_PLANS))
        .as("into the next second")
        .isEqualTo("20261122120001002");
    assertThat(clock.next("0"))
        .as("a completion time takes any millisecond")
        .isEqualTo("20261122120001003");
  }

  /**
   * Model: one clock per issuer, each skewed against the others by up to 50 ms, issuing a requested
   * time (and now and then a completion time) from the latest time on the timeline; an issued time
   * reaches the timeline only after a delay (a planning between choosing its time and publishing
   * its plan), during which the other issuers do not see it. No two issuers may ever issue the same
   * requested time, and each clock's times increase above the floor it was given.
   */
  @Test
  void skewedIssuersNeverIssueTheSameTimeWhateverTheirTimesReachTheTimelineLate() {
    long seed = Seeds.seed("InstantClockTest");
    Random random = new Random(seed);
    long[] now = {NOON.toEpochMilli()};
    Map<InstantIssuer, InstantClock> clocks = new HashMap<>();
    for (InstantIssuer issuer : InstantIssuer.values()) {
      long skew = random.nextInt(101) - 50;
      clocks.put(issuer, new InstantClock(new SkewedClock(now, skew)));
    }
    Map<String, InstantIssuer> issuerOfTime = new HashMap<>();
    Map<InstantIssuer, String> lastOf = new HashMap<>();
    PriorityQueue<Published> inFlight = new PriorityQueue<>();
    String latestOnTimeline = "0";
    for (int step = 0; step < 20_000; step++) {
      now[0] += random.nextInt(3);
      while (!inFlight.isEmpty() && inFlight.peek().visibleAt <= now[0]) {
        String time = inFlight.poll().time;
        latestOnTimeline = time.compareTo(latestOnTimeline) > 0 ? time : latestOnTimeline;
      }
      InstantIssuer issuer = InstantIssuer.values()[random.nextInt(InstantIssuer.values().length)];
      InstantClock clock = clocks.get(issuer);
      String floor = latestOnTimeline;
      boolean completion = random.nextInt(4) == 0;
      String time = completion ? clock.next(floor) : clock.next(floor, issuer);
      assertThat(time).as("seed %d, step %d", seed, step).isGreaterThan(floor);
      String last = lastOf.put(issuer, time);
      if (last != null) {
        assertThat(time).as("seed %d, step %d", seed, step).isGreaterThan(last);
      }
      if (!completion) {
        InstantIssuer earlier = issuerOfTime.putIfAbsent(time, issuer);
        assertThat(earlier)
            .as(
                "seed %d, step %d: %s issued %s, which %s issued",
                seed, step, issuer, time, earlier)
            .isNull();
      }
      inFlight.add(new Published(time, now[0] + random.nextInt(200)));
    }
  }

  private record Published(String time, long visibleAt) implements Comparable<Published> {
    @Override
    public int compareTo(Published other) {
      return Long.compare(visibleAt, other.visibleAt);
    }
  }

  /** A clock reading the shared model time {@code now[0]} plus its own skew, in milliseconds. */
  private static final class SkewedClock extends Clock {
    private final long[] now;
    private final long skewMillis;

    SkewedClock(long[] now, long skewMillis) {
      this.now = now;
      this.skewMillis = skewMillis;
    }

    @Override
    public ZoneId getZone() {
      return UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      throw new UnsupportedOperationException();
    }

    @Override
    public Instant instant() {
      return Instant.ofEpochMilli(now[0] + skewMillis);
    }
  }
}
