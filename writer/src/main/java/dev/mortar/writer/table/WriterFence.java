package dev.mortar.writer.table;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import org.apache.flink.runtime.execution.SuppressRestartsException;
import org.apache.hadoop.fs.FileSystem;

/**
 * The committers' side of the writer lease the instant coordinator holds: before the timeline
 * publishes a commit, a compaction commit, a clean or a plan, and before the archiver changes the
 * archived timeline, it checks that this Flink job still holds the lease and that its last
 * heartbeat is recent. A job that lost the lease fails without restarts, naming the new holder,
 * instead of publishing.
 */
public final class WriterFence implements Timeline.Fence {
  private final WriterLease lease;
  private final String job;

  private WriterFence(WriterLease lease, String job) {
    this.lease = lease;
    this.job = job;
  }

  /**
   * The fence of Flink job {@code job}'s hold on the lease of the table at {@code basePath}, which
   * expires {@code timeout} after a heartbeat.
   */
  public static WriterFence of(FileSystem fs, String basePath, Duration timeout, String job) {
    return new WriterFence(WriterLease.of(fs, TableFileSystems.path(basePath), timeout), job);
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
