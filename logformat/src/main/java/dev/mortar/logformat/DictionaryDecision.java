package dev.mortar.logformat;

import java.util.Arrays;

/**
 * Whether dictionary encoding can pay off for each column of a Parquet block, decided from a sample
 * of the column's first values: a hash of each non-null value and the bytes it would take in the
 * dictionary (parquet-mr's count: 4 or 8 for a number, 4 plus the length for a binary).
 *
 * <p>The rule. parquet-mr gives up a column's dictionary once it outgrows the dictionary page
 * ({@code pageBytes}; parquet-mr's default 1 MiB) and then encodes every value buffered so far a
 * second time, plainly; a smaller dictionary that holds nearly every value once saves nothing
 * either. A page of the sample's average entry size holds {@code M} entries. {@code k} values drawn
 * from a column of {@code M} equally frequent values show {@code M(1 - e^(-k/M))} distinct ones on
 * average, and fewer when the column has fewer values. So a column whose sample shows at most that
 * many distinct values keeps the dictionary, and one that shows more (a unique key, random text)
 * goes without. A column with no sampled value keeps it too: it costs nothing there.
 *
 * <p>Values are compared by their 32-bit hashes; a collision makes a column look a little less
 * distinct, which only keeps a dictionary that might have gone.
 */
final class DictionaryDecision {
  /** Values sampled per column. */
  static final int SAMPLE_SIZE = 1024;

  private final int pageBytes;
  private final int[][] hashes;
  private final int[] counts;
  private final long[] entryBytes;

  DictionaryDecision(int columns, int pageBytes) {
    this.pageBytes = pageBytes;
    this.hashes = new int[columns][SAMPLE_SIZE];
    this.counts = new int[columns];
    this.entryBytes = new long[columns];
  }

  /** Adds a non-null value of {@code column}, unless its sample is full. */
  void add(int column, int hash, int dictionaryEntryBytes) {
    int count = counts[column];
    if (count < SAMPLE_SIZE) {
      hashes[column][count] = hash;
      counts[column] = count + 1;
      entryBytes[column] += dictionaryEntryBytes;
    }
  }

  /**
   * Whether the values of {@code column} sampled since the last {@link #reset} keep a dictionary.
   */
  boolean paysOff(int column) {
    int sampled = counts[column];
    if (sampled == 0) {
      return true;
    }
    int[] sample = hashes[column];
    Arrays.sort(sample, 0, sampled);
    int distinct = 1;
    for (int i = 1; i < sampled; i++) {
      if (sample[i] != sample[i - 1]) {
        distinct++;
      }
    }
    return paysOff(sampled, distinct, (double) entryBytes[column] / sampled, pageBytes);
  }

  /** The rule of the class comment. */
  static boolean paysOff(int sampled, int distinct, double averageEntryBytes, int pageBytes) {
    double pageEntries = pageBytes / Math.max(averageEntryBytes, 1);
    return distinct <= pageEntries * -Math.expm1(-sampled / pageEntries);
  }

  /** Starts the sample of the next block. */
  void reset() {
    Arrays.fill(counts, 0);
    Arrays.fill(entryBytes, 0);
  }
}
