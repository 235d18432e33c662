package dev.mortar.writer.table;

import java.io.IOException;
import java.net.URI;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Opens the Hadoop {@link FileSystem} of a table base path. Each caller gets its own instance
 * ({@code FileSystem.newInstance}, not the JVM-wide cache) and closes it when done, so closing one
 * never breaks another user of the same file system in the JVM.
 */
public final class TableFileSystems {
  private TableFileSystems() {}

  public static FileSystem open(String basePath) throws IOException {
    URI uri = path(basePath).toUri();
    return FileSystem.newInstance(uri, new Configuration());
  }

  public static Path path(String basePath) {
    return new Path(basePath);
  }
}
