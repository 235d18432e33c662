package dev.mortar.writer.table;

import java.time.Clock;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;

/**
 * Issues Hudi instant times ({@code yyyyMMddHHmmssSSS}, local time as Hudi's default timeline time
 * zone) that are strictly increasing: never at or below the floor passed in (the latest time found
 * on the timeline, which covers times issued by other processes) or any time it issued before.
 * Within one millisecond, or when the wall clock is behind, the next time is the highest of those
 * plus one millisecond. A requested time is moved on to its issuer's next millisecond ({@link
 * InstantIssuer}), so times of different issuers never meet.
 */
final class InstantClock {
  static final DateTimeFormatter FORMAT = DateTimeFormatter.ofPattern("yyyyMMddHHmmssSSS");

  private final Clock clock;
  private String last = "0";

  InstantClock(Clock clock) {
    this.clock = clock;
  }

  /** A completion time: later than {@code floor} and than every time issued before. */
  synchronized String next(String floor) {
    LocalDateTime next = nextAfter(floor);
    last = next.format(FORMAT);
    return last;
  }

  /** A requested time of {@code issuer}: {@link #next}, moved on to the issuer's millisecond. */
  synchronized String next(String floor, InstantIssuer issuer) {
    LocalDateTime next = nextAfter(floor);
    while (!issuer.owns(next.getNano() / 1_000_000)) {
      next = next.plusNanos(1_000_000);
    }
    last = next.format(FORMAT);
    return last;
  }

  private LocalDateTime nextAfter(String floor) {
    String highest = floor.compareTo(last) > 0 ? floor : last;
    LocalDateTime now = LocalDateTime.now(clock).truncatedTo(ChronoUnit.MILLIS);
    if (now.format(FORMAT).compareTo(highest) <= 0) {
      return LocalDateTime.parse(highest, FORMAT).plusNanos(1_000_000);
    }
    return now;
  }
}
