package dev.mortar.writer.compaction;

import java.util.List;
import javax.annotation.Nullable;

/**
 * One file slice to compact: its base file (null for a slice of logs only), its log files oldest
 * first, and the slice's base instant (the base file's instant, or the oldest log's delta commit).
 */
record CompactionOperation(
    FileGroupId fileGroup,
    String baseInstant,
    @Nullable BaseFile baseFile,
    List<LogFile> logFiles) {
  long logBytes() {
    return logFiles.stream().mapToLong(LogFile::sizeBytes).sum();
  }
}
