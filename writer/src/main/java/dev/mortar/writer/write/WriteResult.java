package dev.mortar.writer.write;

import dev.mortar.writer.table.WriteStat;
import java.util.List;

/**
 * What one write task wrote under one instant: the log files of the interval that followed
 * checkpoint {@code afterCheckpoint}. Emitted to the committer before the task forwards the next
 * barrier (or at end of input).
 */
public record WriteResult(
    String instant, long afterCheckpoint, int subtask, List<WriteStat> stats) {
  public WriteResult {
    stats = List.copyOf(stats);
  }
}
