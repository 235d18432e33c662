package dev.mortar.writer.compaction;

import java.util.List;
import javax.annotation.Nullable;

/**
 * One file slice of a file group: the base instant that keys it, its base file (null for a slice of
 * logs only, or for the slice a pending compaction opens) and its log files, oldest first.
 */
public record FileSlice(String baseInstant, @Nullable BaseFile baseFile, List<LogFile> logFiles) {}
