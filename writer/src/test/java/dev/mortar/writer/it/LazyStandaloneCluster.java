package dev.mortar.writer.it;

import java.io.IOException;
import java.nio.file.Path;

/**
 * One standalone Flink cluster for a whole campaign, started when a run first needs it (its
 * JobManager takes seconds to start) with one TaskManager, and stopped with the campaign. A run
 * kills the TaskManager and starts the next one.
 */
final class LazyStandaloneCluster implements AutoCloseable {
  private final Path folder;
  private final int slots;
  private StandaloneFlinkCluster cluster;

  LazyStandaloneCluster(Path folder, int slots) {
    this.folder = folder;
    this.slots = slots;
  }

  StandaloneFlinkCluster get() throws IOException {
    if (cluster == null) {
      cluster = new StandaloneFlinkCluster(folder, slots);
      cluster.startTaskManager();
    }
    return cluster;
  }

  @Override
  public void close() throws InterruptedException {
    if (cluster != null) {
      cluster.close();
    }
  }
}
