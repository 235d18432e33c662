package dev.mortar.writer;

import dev.mortar.writer.table.HudiTable;
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

  public static void validate(SinkSettings settings) {
    Path base = TableFileSystems.path(settings.basePath());
    try (FileSystem fs = TableFileSystems.open(settings.basePath())) {
      if (fs.exists(new Path(base, ".hoodie/hoodie.properties"))) {
        HudiTable.createOrValidate(fs, base, settings.tableSettings());
        BucketCount.check(fs, base, settings.buckets());
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot check the table at " + base, e);
    }
  }
}
