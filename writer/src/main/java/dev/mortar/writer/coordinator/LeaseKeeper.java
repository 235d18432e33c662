package dev.mortar.writer.coordinator;

import dev.mortar.writer.table.LeaseHolder;
import dev.mortar.writer.table.WriterLease;
import dev.mortar.writer.table.WriterLeaseException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import javax.annotation.Nullable;
import org.apache.flink.runtime.execution.SuppressRestartsException;
import org.apache.flink.util.concurrent.ExecutorThreadFactory;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The instant coordinator's hold on the table's {@link WriterLease}: takes it when the job starts,
 * renews it every quarter of {@code writer.lease.timeout} on a thread of its own, and releases it
 * when the coordinator closes (the job finished, was cancelled or failed for good). The writer's
 * identity is a random id kept in the coordinator's checkpoints ({@link #writerState}), so a job
 * restored from them is the same writer and takes the lease at once. The coordinator lives as long
 * as the job, through Flink's failovers, so those never touch the lease. A heartbeat that finds the
 * lease taken fails the job without restarts; one that cannot reach the storage only logs (the
 * committers refuse to publish once the lease has expired).
 */
final class LeaseKeeper implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(LeaseKeeper.class);
  private static final Duration RELEASE_GRACE = Duration.ofSeconds(3);
  private static final long RELEASE_POLL_MILLIS = 100;

  private final String job;
  private final Consumer<Throwable> failJob;
  private final ScheduledExecutorService heartbeats;
  private volatile String writer = UUID.randomUUID().toString();
  @Nullable private WriterLease lease;
  @Nullable private LeaseHolder holder;
  private long generation;
  @Nullable private volatile WriterLeaseException refusal;

  /**
   * @param job the Flink job id
   * @param failJob fails the job (the coordinator context's {@code failJob})
   */
  LeaseKeeper(String job, String operatorName, Consumer<Throwable> failJob) {
    this.job = job;
    this.failJob = failJob;
    this.heartbeats =
        Executors.newSingleThreadScheduledExecutor(
            new ExecutorThreadFactory("mortar-lease-" + operatorName));
  }

  /** The writer identity from a checkpoint; empty state (a checkpoint without one) keeps ours. */
  void restoreWriter(@Nullable byte[] state) {
    if (state != null && state.length > 0) {
      writer = new String(state, StandardCharsets.UTF_8);
    }
  }

  /** The writer identity, for the coordinator's checkpoint. */
  byte[] writerState() {
    return writer.getBytes(StandardCharsets.UTF_8);
  }

  /**
   * Takes the lease of the table at {@code basePath} and starts the heartbeats; if another writer
   * still holds it after {@link #RELEASE_GRACE} (a job that has just finished releases it as its
   * JobManager closes, a moment after its result is out), fails the job. A job restored from the
   * holder's checkpoint or savepoint takes it over, but first gives the holder the same grace to
   * release it: Flink's cancel returns before the cancelled job's tasks have closed, and their last
   * flushes, compactions and archival runs would otherwise run beside this job's.
   */
  synchronized void acquire(FileSystem fs, Path basePath, Duration timeout)
      throws IOException, InterruptedException {
    WriterLease table = WriterLease.of(fs, basePath, timeout);
    holder = new LeaseHolder(writer, job, host(), System.currentTimeMillis());
    long deadline = System.nanoTime() + RELEASE_GRACE.toNanos();
    awaitReleaseByRestoredJob(table, basePath, deadline);
    while (true) {
      try {
        generation = table.acquire(holder);
        break;
      } catch (WriterLeaseException held) {
        if (System.nanoTime() >= deadline) {
          lost(held);
          return;
        }
        Thread.sleep(RELEASE_POLL_MILLIS);
      }
    }
    lease = table;
    LOG.info("Took the writer lease of {} as {} (generation {})", basePath, holder, generation);
    long period = Math.max(1, timeout.toMillis() / 4);
    heartbeats.scheduleWithFixedDelay(this::renew, period, period, TimeUnit.MILLISECONDS);
  }

  /** Waits until the lease is not held by this writer's earlier job, or until {@code deadline}. */
  private void awaitReleaseByRestoredJob(WriterLease table, Path basePath, long deadline)
      throws IOException, InterruptedException {
    Optional<LeaseHolder> earlier = table.earlierJobOfWriter(holder);
    if (earlier.isEmpty()) {
      return;
    }
    LOG.info(
        "Waiting up to {} for {}, the job this one restores, to release the writer lease of {}",
        RELEASE_GRACE,
        earlier.get(),
        basePath);
    while (System.nanoTime() < deadline) {
      Thread.sleep(RELEASE_POLL_MILLIS);
      if (table.earlierJobOfWriter(holder).isEmpty()) {
        return;
      }
    }
    LOG.warn(
        "Taking the writer lease of {} over from {}, which still holds it after {}: tasks of that"
            + " job still closing may run beside this job's",
        basePath,
        earlier.get(),
        RELEASE_GRACE);
  }

  private synchronized void renew() {
    if (lease == null) {
      return;
    }
    try {
      generation = lease.renew(generation, holder);
    } catch (WriterLeaseException taken) {
      lease = null;
      heartbeats.shutdown();
      lost(taken);
    } catch (IOException e) {
      LOG.warn("Could not renew the writer lease (generation {}); trying again", generation, e);
    }
  }

  /**
   * Fails the job without restarts; instants are refused from now on. (Throwing from the
   * coordinator's start instead would be a fatal error of the JobManager, ending every job on it.)
   */
  private void lost(WriterLeaseException reason) {
    refusal = reason;
    failJob.accept(new SuppressRestartsException(reason));
  }

  /**
   * @throws WriterLeaseException if this writer did not get the lease or lost it
   */
  void checkHeld() {
    WriterLeaseException reason = refusal;
    if (reason != null) {
      throw reason;
    }
  }

  private static String host() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      return "unknown host";
    }
  }

  /** Stops the heartbeats and releases the lease if this writer still holds it. */
  @Override
  public void close() throws IOException, InterruptedException {
    heartbeats.shutdownNow();
    heartbeats.awaitTermination(10, TimeUnit.SECONDS);
    synchronized (this) {
      if (lease != null) {
        lease.release(generation, holder);
        LOG.info("Released the writer lease as {}", holder);
        lease = null;
      }
    }
  }
}
