package dev.mortar.writer.table;

import dev.mortar.writer.options.WriterOptions;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Properties;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The bucket count a table was created with. Hudi keeps no record of it for the simple bucket index
 * (hudi-format.md §2.1), yet a different count maps keys to other buckets, so a key would live in
 * two file groups. Mortar records it in {@code .hoodie/.aux/mortar.properties} (Hudi's auxiliary
 * folder, ignored by its readers) on the first start and refuses another count later.
 */
public final class BucketCount {
  private static final String KEY = "buckets";

  private BucketCount() {}

  private static Path file(Path base) {
    return new Path(HudiTable.auxFolder(base), "mortar.properties");
  }

  /** Fails if the table records another bucket count; records {@code buckets} if it has none. */
  public static void recordOrCheck(FileSystem fs, Path base, int buckets) throws IOException {
    if (!check(fs, base, buckets)) {
      try (OutputStream out = fs.create(file(base), false)) {
        Properties properties = new Properties();
        properties.setProperty(KEY, Integer.toString(buckets));
        properties.store(out, "Mortar: the table's bucket count; it cannot change");
      } catch (FileAlreadyExistsException raced) {
        check(fs, base, buckets);
      }
    }
  }

  /**
   * Fails if the table records another bucket count.
   *
   * @return whether the table records one
   */
  static boolean check(FileSystem fs, Path base, int buckets) throws IOException {
    Path file = file(base);
    if (!fs.exists(file)) {
      return false;
    }
    Properties properties = new Properties();
    try (InputStream in = fs.open(file)) {
      properties.load(new InputStreamReader(in, StandardCharsets.ISO_8859_1));
    }
    String recorded = properties.getProperty(KEY);
    if (!Integer.toString(buckets).equals(recorded)) {
      throw new IllegalArgumentException(
          "the table at "
              + base
              + " has "
              + recorded
              + " buckets per partition, the sink is set to "
              + buckets
              + "; set '"
              + WriterOptions.BUCKETS.key()
              + "' = '"
              + recorded
              + "' (the bucket count of a table cannot change)");
    }
    return true;
  }
}
