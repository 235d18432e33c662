package dev.mortar.writer.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.core.plugin.DefaultPluginManager;
import org.apache.flink.core.plugin.DirectoryBasedPluginFinder;
import org.apache.flink.core.plugin.PluginManager;

/**
 * A Flink plugins folder, one sub-folder per plugin with its jars, loaded as a cluster loads its
 * {@code plugins/} folder: each plugin in a class loader of its own. The writer module's build
 * copies Flink's S3 file system into {@code target/flink-plugins/s3-fs-hadoop/}.
 */
record PluginFolder(Path root) {
  PluginManager manager(Configuration conf) {
    try {
      return new DefaultPluginManager(
          new DirectoryBasedPluginFinder(root).findPlugins(),
          CoreOptions.getPluginParentFirstLoaderPatterns(conf));
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot list the Flink plugins in " + root.toAbsolutePath(), e);
    }
  }
}
