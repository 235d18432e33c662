package dev.mortar.writer.archive;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The name of a data file of the archived timeline, {@code <min>_<max>_<layer>.parquet}: the
 * smallest and largest requested time of the instants it holds and its LSM layer, 0 for a file an
 * archival run wrote, n + 1 for the merge of files of layer n. Hudi 1.1 matches names with {@code
 * ^(\d+)_(\d+)_(\d)\.parquet}, so a layer has one digit.
 */
record ArchiveFileName(String min, String max, int layer) {
  private static final Pattern NAME = Pattern.compile("^(\\d+)_(\\d+)_(\\d)\\.parquet$");

  /** The layer-0 file of one archival run. */
  static ArchiveFileName ofRun(String min, String max) {
    return new ArchiveFileName(min, max, 0);
  }

  static ArchiveFileName parse(String fileName) {
    Matcher matcher = NAME.matcher(fileName);
    if (!matcher.matches()) {
      throw new IllegalArgumentException(
          "archived timeline file "
              + fileName
              + ": expected <min>_<max>_<layer>.parquet (layer one digit)");
    }
    return new ArchiveFileName(
        matcher.group(1), matcher.group(2), Integer.parseInt(matcher.group(3)));
  }

  /** The file the merge of {@code files}, all of one layer, goes to: their range, a layer up. */
  static ArchiveFileName merged(List<ArchiveFileName> files) {
    String min = files.get(0).min;
    String max = files.get(0).max;
    for (ArchiveFileName file : files) {
      min = file.min.compareTo(min) < 0 ? file.min : min;
      max = file.max.compareTo(max) > 0 ? file.max : max;
    }
    return new ArchiveFileName(min, max, files.get(0).layer + 1);
  }

  @Override
  public String toString() {
    return min + "_" + max + "_" + layer + ".parquet";
  }
}
