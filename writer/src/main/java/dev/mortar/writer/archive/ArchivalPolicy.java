package dev.mortar.writer.archive;

/**
 * When the archiver runs and how it keeps the archived timeline compact.
 *
 * @param minCommits completed commits an archival leaves active ({@code archive.min-commits}, as
 *     Hudi's {@code hoodie.keep.min.commits})
 * @param maxCommits completed commits beyond which an archival runs ({@code archive.max-commits},
 *     as Hudi's {@code hoodie.keep.max.commits})
 * @param mergeBatch files of one layer of {@code history/} merged into one file of the next ({@code
 *     archive.merge-batch}, as Hudi's {@code hoodie.timeline.compaction.batch.size})
 */
public record ArchivalPolicy(int minCommits, int maxCommits, int mergeBatch) {
  public ArchivalPolicy {
    if (minCommits < 1 || maxCommits <= minCommits) {
      throw new IllegalArgumentException(
          "options 'archive.min-commits' and 'archive.max-commits': expected 1 <= min < max, got "
              + minCommits
              + " and "
              + maxCommits);
    }
    if (mergeBatch < 2) {
      throw new IllegalArgumentException(
          "option 'archive.merge-batch' must be at least 2, got " + mergeBatch);
    }
  }
}
