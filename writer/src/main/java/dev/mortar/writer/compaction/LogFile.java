package dev.mortar.writer.compaction;

import java.util.Comparator;
import java.util.Optional;

/**
 * A log file, named {@code .<fileId>_<deltaCommit>.log.<version>_<writeToken>}, where {@code
 * deltaCommit} is the requested time of the delta commit that wrote it. The natural order is the
 * order of a slice's logs in a compaction plan, oldest first: by delta commit, then version, then
 * write token, as Hudi sorts them.
 */
public record LogFile(
    String name, String fileId, String deltaCommit, int version, String writeToken, long sizeBytes)
    implements Comparable<LogFile> {
  private static final String LOG_INFIX = ".log.";
  private static final Comparator<LogFile> OLDEST_FIRST =
      Comparator.comparing(LogFile::deltaCommit)
          .thenComparingInt(LogFile::version)
          .thenComparing(LogFile::writeToken);

  /** The log file of that name, or empty if the name is not a log file's (e.g. a .crc file). */
  public static Optional<LogFile> parse(String name, long sizeBytes) {
    int infix = name.indexOf(LOG_INFIX);
    if (!name.startsWith(".") || name.endsWith(".crc") || infix < 0) {
      return Optional.empty();
    }
    String fileAndCommit = name.substring(1, infix);
    String versionAndToken = name.substring(infix + LOG_INFIX.length());
    int commitAt = fileAndCommit.lastIndexOf('_');
    int tokenAt = versionAndToken.indexOf('_');
    if (commitAt <= 0 || tokenAt <= 0) {
      return Optional.empty();
    }
    try {
      return Optional.of(
          new LogFile(
              name,
              fileAndCommit.substring(0, commitAt),
              fileAndCommit.substring(commitAt + 1),
              Integer.parseInt(versionAndToken.substring(0, tokenAt)),
              versionAndToken.substring(tokenAt + 1),
              sizeBytes));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  @Override
  public int compareTo(LogFile other) {
    return OLDEST_FIRST.compare(this, other);
  }
}
