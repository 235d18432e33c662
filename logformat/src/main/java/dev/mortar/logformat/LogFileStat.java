package dev.mortar.logformat;

/**
 * What one finished log file holds, for the commit's write stats.
 *
 * @param partitionPath partition relative to the table base path ("" when not partitioned)
 * @param fileId the file group
 * @param fileName the log file's name, without directories
 * @param version the log version in the name (from 1)
 * @param sizeBytes bytes in the file
 * @param numWrites data records in the file
 * @param numDeletes delete records in the file
 * @param numBlocks blocks in the file
 */
public record LogFileStat(
    String partitionPath,
    String fileId,
    String fileName,
    int version,
    long sizeBytes,
    long numWrites,
    long numDeletes,
    int numBlocks) {

  /** The path relative to the table base path, as Hudi's write stat {@code path} holds it. */
  public String relativePath() {
    return partitionPath.isEmpty() ? fileName : partitionPath + "/" + fileName;
  }
}
