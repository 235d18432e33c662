package dev.mortar.writer.compaction;

import dev.mortar.writer.table.HudiTable;
import java.io.Serializable;
import org.apache.flink.metrics.MetricGroup;
import org.apache.hadoop.fs.FileSystem;

/**
 * A table service that the compaction committer starts after each compaction it commits: the
 * cleaner ({@code dev.mortar.writer.clean}, which builds on this package's file slicing and so is
 * handed in by the sink rather than named here). Shipped with the operator; {@link #open} gives
 * each attempt of the committer its own {@link Service}.
 */
public interface AfterCompaction extends Serializable {
  /** No service. */
  AfterCompaction NONE =
      (fs, table, operatorGroup) ->
          new Service() {
            @Override
            public void compactionCommitted(String instant) {}

            @Override
            public void awaitIdle() {}

            @Override
            public void close() {}
          };

  /** The service of one committer attempt, on the committer's file system and metric group. */
  Service open(FileSystem fs, HudiTable table, MetricGroup operatorGroup);

  /** The running service; closed before the committer's file system. */
  interface Service extends AutoCloseable {
    /**
     * Called on the committer's thread once compaction {@code instant} is committed; must not block
     * it.
     *
     * @throws RuntimeException if an earlier run of the service failed
     */
    void compactionCommitted(String instant);

    /**
     * Waits until the service has caught up with every compaction committed so far (called when the
     * input ends); throws if it failed.
     */
    void awaitIdle();

    /** Lets a running service finish, then stops; does not throw what it failed with. */
    @Override
    void close() throws Exception;
  }
}
