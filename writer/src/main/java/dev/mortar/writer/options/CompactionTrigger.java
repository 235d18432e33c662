package dev.mortar.writer.options;

import java.io.Serializable;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import javax.annotation.Nullable;

/**
 * When a compaction is due: once {@code deltaCommits} delta commits completed since the latest
 * compaction, or, with an {@code interval}, once that much time passed since it (by the instants'
 * own times, which one clock issued) and at least one delta commit completed since.
 */
public record CompactionTrigger(int deltaCommits, @Nullable Duration interval)
    implements Serializable {
  private static final DateTimeFormatter INSTANT = DateTimeFormatter.ofPattern("yyyyMMddHHmmssSSS");

  /**
   * @param completedSince delta commits completed after {@code since} and before {@code instant}
   * @param since the latest compaction instant before {@code instant}, or the oldest delta commit's
   *     completion when the table has none, or null when it has neither
   */
  public boolean isDue(int completedSince, @Nullable String since, String instant) {
    if (completedSince >= deltaCommits) {
      return true;
    }
    if (interval == null || completedSince == 0 || since == null) {
      return false;
    }
    Duration elapsed =
        Duration.between(
            LocalDateTime.parse(since, INSTANT), LocalDateTime.parse(instant, INSTANT));
    return elapsed.compareTo(interval) >= 0;
  }
}
