package dev.mortar.writer.table;

import java.io.Serializable;
import javax.annotation.Nullable;

/**
 * One base file written by a compaction, as its commit metadata records it (Hudi's {@code
 * HoodieWriteStat} of a compaction, shared/spec/hudi-table-services.md §2.4).
 *
 * @param partitionPath relative partition path, "" when not partitioned
 * @param fileId the file group id
 * @param baseFileName the new base file's name
 * @param previousBase the base file the slice had (its instant and name), null for a slice of logs
 * @param numWrites records in the new base file
 * @param numDeletes keys the logs deleted
 * @param numUpdateWrites records of the previous base file that the logs changed (0 without one)
 * @param sizeBytes bytes of the new base file
 * @param logRecords records and deletes read from the logs
 * @param logBlocks blocks read from the logs
 * @param logFiles log files compacted
 * @param logBytes bytes of the log files compacted
 * @param millis time the file group took
 */
public record CompactionWriteStat(
    String partitionPath,
    String fileId,
    String baseFileName,
    @Nullable PreviousBase previousBase,
    long numWrites,
    long numDeletes,
    long numUpdateWrites,
    long sizeBytes,
    long logRecords,
    long logBlocks,
    long logFiles,
    long logBytes,
    long millis)
    implements Serializable {

  /** A slice's base file before the compaction: the instant that wrote it and its name. */
  public record PreviousBase(String instant, String fileName) implements Serializable {}

  /** Records new to the file group (Hudi's {@code numInserts}). */
  public long numInserts() {
    return previousBase == null ? numWrites : 0;
  }

  /** The base file's path relative to the table base path. */
  public String relativePath() {
    return partitionPath.isEmpty() ? baseFileName : partitionPath + "/" + baseFileName;
  }
}
