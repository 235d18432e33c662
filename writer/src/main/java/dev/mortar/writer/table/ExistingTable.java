package dev.mortar.writer.table;

import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Checks, when the job is built, that a table already at the path matches the sink's settings, so a
 * wrong key or partition field fails before the job runs. A missing table is created later, by the
 * running job, not at build time.
 */
public final class ExistingTable {
  private ExistingTable() {}

  /** Fails naming each difference if a table at {@code basePath} has other settings or buckets. */
  public static void validate(String basePath, TableSettings settings, int buckets) {
    Path base = TableFileSystems.path(basePath);
    try (FileSystem fs = TableFileSystems.open(basePath)) {
      if (fs.exists(HudiTable.propertiesFile(base))) {
        HudiTable.createOrValidate(fs, base, settings);
        BucketCount.check(fs, base, buckets);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot check the table at " + base, e);
    }
  }
}
