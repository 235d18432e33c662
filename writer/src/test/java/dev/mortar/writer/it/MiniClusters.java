package dev.mortar.writer.it;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;

/** The MiniCluster every job test of this package runs on: one TaskManager with {@code slots}. */
final class MiniClusters {
  private MiniClusters() {}

  static MiniClusterExtension withSlots(int slots) {
    return withSlots(slots, new Configuration());
  }

  /** A MiniCluster whose JobManager and TaskManager also have {@code configuration}. */
  static MiniClusterExtension withSlots(int slots, Configuration configuration) {
    return new MiniClusterExtension(
        new MiniClusterResourceConfiguration.Builder()
            .setConfiguration(configuration)
            .setNumberTaskManagers(1)
            .setNumberSlotsPerTaskManager(slots)
            .build());
  }
}
