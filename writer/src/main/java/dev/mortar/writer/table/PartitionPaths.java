package dev.mortar.writer.table;

/**
 * Builds a partition path the way Hudi's key generators do with their defaults (not hive-style, not
 * URL-encoded): the partition field values joined with {@code /}, a null or empty value written as
 * {@code __HIVE_DEFAULT_PARTITION__}. A non-partitioned table has the path {@code ""}.
 */
public final class PartitionPaths {
  public static final String DEFAULT_PARTITION = "__HIVE_DEFAULT_PARTITION__";

  private final int fieldCount;

  private PartitionPaths(int fieldCount) {
    this.fieldCount = fieldCount;
  }

  public static PartitionPaths of(TableSettings settings) {
    return new PartitionPaths(settings.partitionFields().size());
  }

  /** The partition path for the given values, one per partition field in declaration order. */
  public String build(String... values) {
    if (values.length != fieldCount) {
      throw new IllegalArgumentException(
          "expected " + fieldCount + " partition values, got " + values.length);
    }
    if (fieldCount == 0) {
      return "";
    }
    StringBuilder path = new StringBuilder();
    for (int i = 0; i < values.length; i++) {
      if (i > 0) {
        path.append('/');
      }
      String value = values[i];
      path.append(value == null || value.isEmpty() ? DEFAULT_PARTITION : value);
    }
    return path.toString();
  }

  /** Number of directory levels below the base path: 0 for {@code ""}, 2 for {@code a/b}. */
  public static int depth(String partitionPath) {
    if (partitionPath.isEmpty()) {
      return 0;
    }
    return (int) partitionPath.chars().filter(c -> c == '/').count() + 1;
  }
}
