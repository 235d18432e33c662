package dev.mortar.writer.table;

import java.time.Clock;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;

/**
 * Issues Hudi instant times ({@code yyyyMMddHHmmssSSS}, local time as Hudi's default timeline time
 * zone) that are strictly increasing: never at or below the floor it starts from (the latest time
 * found on the timeline) or any time it issued before. Within one millisecond, or when the wall
 * clock goes back, the next time is the previous plus one millisecond.
 */
final class InstantClock {
  static final DateTimeFormatter FORMAT = DateTimeFormatter.ofPattern("yyyyMMddHHmmssSSS");

  private final Clock clock;
  private String last;

  InstantClock(Clock clock, String floor) {
    this.clock = clock;
    this.last = floor;
  }

  synchronized String next() {
    String now = LocalDateTime.now(clock).format(FORMAT);
    if (now.compareTo(last) <= 0) {
      now = LocalDateTime.parse(last, FORMAT).plusNanos(1_000_000).format(FORMAT);
    }
    last = now;
    return now;
  }
}
