package dev.mortar.writer.compaction;

import java.io.Serializable;
import java.util.List;
import javax.annotation.Nullable;

/**
 * One operation of a compaction plan, sent from the committer to a compaction task: the file slice
 * of {@code fileGroup} to compact into a base file named with {@code instant}.
 *
 * @param instant the compaction instant {@code C}
 * @param planSize the number of operations in the plan: the compaction commits once that many base
 *     files are written
 * @param baseInstant the slice's base instant (the base file's, or the oldest log's)
 * @param baseFileName the slice's base file, null for a slice of logs only
 * @param logFileNames the slice's log files, oldest first
 * @param finishAtEnd whether a compaction task whose input ends finishes this operation (a plan an
 *     earlier attempt left pending, one written at the end of a job's input, the offline
 *     compactor's); otherwise the end of input abandons it and its plan is unscheduled
 */
public record CompactionTask(
    String instant,
    int planSize,
    FileGroupId fileGroup,
    String baseInstant,
    @Nullable String baseFileName,
    List<String> logFileNames,
    boolean finishAtEnd)
    implements Serializable {

  /** This operation, finished even when the input of its compaction task ends. */
  CompactionTask toFinishAtEnd() {
    return new CompactionTask(
        instant, planSize, fileGroup, baseInstant, baseFileName, logFileNames, true);
  }
}
