package dev.mortar.writer.compaction;

import java.util.Optional;

/**
 * A base file, named {@code <fileId>_<writeToken>_<instant>.parquet}, where {@code instant} is the
 * compaction (a {@code commit} on a Merge-On-Read table) that wrote it.
 */
public record BaseFile(String name, String fileId, String instant, long sizeBytes) {
  private static final String SUFFIX = ".parquet";

  /** The base file of that name, or empty if the name is not a base file's. */
  public static Optional<BaseFile> parse(String name, long sizeBytes) {
    if (name.startsWith(".") || !name.endsWith(SUFFIX)) {
      return Optional.empty();
    }
    String stem = name.substring(0, name.length() - SUFFIX.length());
    int instantAt = stem.lastIndexOf('_');
    int tokenAt = instantAt <= 0 ? -1 : stem.lastIndexOf('_', instantAt - 1);
    if (tokenAt <= 0) {
      return Optional.empty();
    }
    return Optional.of(
        new BaseFile(name, stem.substring(0, tokenAt), stem.substring(instantAt + 1), sizeBytes));
  }
}
