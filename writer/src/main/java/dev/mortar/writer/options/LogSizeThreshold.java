package dev.mortar.writer.options;

import java.io.Serializable;

/**
 * When a file slice's logs are worth a compaction: a slice without a base file always is; a slice
 * with one once its log files' bytes reach {@code ratioToBase} times the base file's bytes, or once
 * it holds {@code maxLogFiles} log files, whichever comes first. A compaction rewrites the whole
 * base file, so with a ratio r a row is rewritten about (1 + r) / r times over a file group's life
 * instead of once per plan, while a reader merges logs of at most r times the base file's bytes. A
 * ratio of 0 takes every slice with logs.
 */
public record LogSizeThreshold(double ratioToBase, int maxLogFiles) implements Serializable {

  public LogSizeThreshold {
    if (!(ratioToBase >= 0) || Double.isInfinite(ratioToBase)) {
      throw new IllegalArgumentException(
          "option '"
              + WriterOptions.COMPACTION_LOG_SIZE_RATIO.key()
              + "' must be a finite number >= 0, got "
              + ratioToBase);
    }
    if (maxLogFiles < 1) {
      throw new IllegalArgumentException(
          "option '"
              + WriterOptions.COMPACTION_MAX_LOG_FILES.key()
              + "' must be > 0, got "
              + maxLogFiles);
    }
  }

  /**
   * @param baseBytes the slice's base file's size, 0 when it has none
   * @param logBytes the total size of the log files a plan would take
   * @param logFiles how many log files that is (at least one)
   */
  public boolean isReached(long baseBytes, long logBytes, int logFiles) {
    return baseBytes == 0 || logFiles >= maxLogFiles || logBytes >= ratioToBase * baseBytes;
  }
}
