package dev.mortar.writer.table;

import java.time.Clock;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;

/**
 * Issues Hudi instant times ({@code yyyyMMddHHmmssSSS}, local time as Hudi's default timeline time
 * zone) that are strictly increasing: never at or below the floor passed in (the latest time found
 * on the timeline, which covers times issued by other processes) or any time it issued before.
 * Within one millisecond, or when the wall clock is behind, the next time is the highest of those
 * plus one millisecond.
 */
final class InstantClock {
  static final DateTimeFormatter FORMAT = DateTimeFormatter.ofPattern("yyyyMMddHHmmssSSS");

  private final Clock clock;
  private String last = "0";

  InstantClock(Clock clock) {
    this.clock = clock;
  }

  /** A time later than {@code floor} and than every time issued before. */
  synchronized String next(String floor) {
    String highest = floor.compareTo(last) > 0 ? floor : last;
    String now = LocalDateTime.now(clock).format(FORMAT);
    if (now.compareTo(highest) <= 0) {
      now = LocalDateTime.parse(highest, FORMAT).plusNanos(1_000_000).format(FORMAT);
    }
    last = now;
    return now;
  }
}
