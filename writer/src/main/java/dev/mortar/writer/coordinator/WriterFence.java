package dev.mortar.writer.coordinator;

import dev.mortar.writer.settings.SinkSettings;
import dev.mortar.writer.table.TableFileSystems;
import dev.mortar.writer.table.Timeline;
import dev.mortar.writer.table.WriterLease;
import dev.mortar.writer.table.WriterLeaseException;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.flink.runtime.execution.SuppressRestartsException;
import org.apache.hadoop.fs.FileSystem;

/**
 * The committers' side of the writer lease the {@link InstantCoordinator} holds: before the
 * timeline publishes a commit, a compaction commit, a clean or a plan, it checks that this Flink
 * job still holds the lease and that its last heartbeat is recent. A job that lost the lease fails
 * without restarts, naming the new holder, instead of publishing.
 */
public final class WriterFence implements Timeline.Fence {
  private final WriterLease lease;
  private final String job;

  private WriterFence(WriterLease lease, String job) {
    this.lease = lease;
    this.job = job;
  }

  /** Fences every publish of {@code timeline} by Flink job {@code job}'s hold on the lease. */
  public static void install(Timeline timeline, FileSystem fs, SinkSettings settings, String job) {
    WriterLease lease =
        WriterLease.of(
            fs, TableFileSystems.path(settings.basePath()), settings.writerLeaseTimeout());
    timeline.fenceWith(new WriterFence(lease, job));
  }

  @Override
  public void check(String publishing) {
    try {
      lease.checkHeldBy(job, publishing);
    } catch (WriterLeaseException lost) {
      throw new SuppressRestartsException(lost);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot read the writer lease in " + lease.dir() + " before publishing " + publishing, e);
    }
  }
}
