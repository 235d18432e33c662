package dev.mortar.writer.table;

/**
 * One log file written by an instant, as the commit metadata records it (Hudi's {@code
 * HoodieDeltaWriteStat} for an append: one per log file).
 *
 * @param partitionPath relative partition path, "" when not partitioned
 * @param fileId the file group id (see {@link BucketIndex#fileId})
 * @param logFileName the log file's name, e.g. {@code .00000001-…_20261122121208113.log.1_0-2-0}
 * @param logVersion the version in the file name
 * @param numInserts records written that were new to the file group in this instant
 * @param numUpdates records written that updated a key already in the file group
 * @param numDeletes keys in delete blocks
 * @param numBlocks log blocks in the file
 * @param sizeBytes bytes of the file
 * @param writeMillis time spent writing the file (Hudi's runtime stat {@code totalUpsertTime})
 */
public record WriteStat(
    String partitionPath,
    String fileId,
    String logFileName,
    int logVersion,
    long numInserts,
    long numUpdates,
    long numDeletes,
    int numBlocks,
    long sizeBytes,
    long writeMillis) {

  /** Records in data blocks (Hudi's {@code numWrites}). */
  public long numWrites() {
    return numInserts + numUpdates;
  }

  /** The file's path relative to the table base path. */
  public String relativePath() {
    return partitionPath.isEmpty() ? logFileName : partitionPath + "/" + logFileName;
  }
}
