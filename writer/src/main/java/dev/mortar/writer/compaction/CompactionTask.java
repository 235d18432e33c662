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
 */
public record CompactionTask(
    String instant,
    int planSize,
    FileGroupId fileGroup,
    String baseInstant,
    @Nullable String baseFileName,
    List<String> logFileNames)
    implements Serializable {}
