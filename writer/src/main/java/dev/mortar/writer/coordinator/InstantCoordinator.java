package dev.mortar.writer.coordinator;

import dev.mortar.writer.compaction.CompactionBacklog;
import dev.mortar.writer.compaction.TimelineSnapshot;
import dev.mortar.writer.settings.SinkSettings;
import dev.mortar.writer.table.BucketCount;
import dev.mortar.writer.table.HudiTable;
import dev.mortar.writer.table.TableFileSystems;
import dev.mortar.writer.table.Timeline;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import javax.annotation.Nullable;
import org.apache.flink.runtime.operators.coordination.CoordinationRequest;
import org.apache.flink.runtime.operators.coordination.CoordinationRequestHandler;
import org.apache.flink.runtime.operators.coordination.CoordinationResponse;
import org.apache.flink.runtime.operators.coordination.OperatorCoordinator;
import org.apache.flink.runtime.operators.coordination.OperatorEvent;
import org.apache.flink.util.concurrent.ExecutorThreadFactory;
import org.apache.hadoop.fs.FileSystem;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands out instants to the write tasks, and does nothing else (commits are the committer
 * operator's job). The interval of input that follows checkpoint N is written under one instant
 * shared by every write task; the first task to ask for "after N" makes the coordinator start it
 * ({@code .requested} + {@code .inflight}), later tasks get the same one.
 *
 * <p>Invariant the committer relies on: <b>instant times increase with N</b>. A slow task may ask
 * for "after N-1" when a fast one already started "after N"; so when starting N the coordinator
 * also starts every interval between the last completed checkpoint and N that has none yet (they
 * stay empty if nobody asks; the committer aborts empty pending instants). After a failover ({@link
 * #resetToCheckpoint}, {@link #subtaskReset}) the map is forgotten, so a restarted job never writes
 * into an instant of a failed attempt. Instants are started on one thread of its own, never on the
 * JobManager's main thread; only {@link #start} opens (and creates or checks) the table and takes
 * its writer lease ({@link LeaseKeeper}) on the caller's thread, so a table that does not match the
 * sink, or that another job writes, fails the job as it starts (no instant is handed out then). Its
 * checkpoint state is the writer's identity, which lets a job restored from it take the lease at
 * once.
 *
 * <p>The thread exists from construction on, because Flink may call {@link #resetToCheckpoint}
 * before {@link #start}: when a job starts from a checkpoint or savepoint it resets the coordinator
 * first. Every callback hands its work to that thread in call order, so a reset that came before
 * {@code start()} runs before any instant is handed out, as one that comes after it does.
 */
public final class InstantCoordinator implements OperatorCoordinator, CoordinationRequestHandler {
  private static final Logger LOG = LoggerFactory.getLogger(InstantCoordinator.class);

  private final String operatorName;
  private final SinkSettings settings;
  private final Map<Long, String> instantAfterCheckpoint = new HashMap<>();

  /** Per subtask: the latest attempt known to run, and the oldest attempt still allowed to ask. */
  private final Map<Integer, Integer> runningAttempt = new HashMap<>();

  private final Map<Integer, Integer> oldestAllowedAttempt = new HashMap<>();
  private final ExecutorService executor;
  private final LeaseKeeper lease;
  private FileSystem fs;
  private Timeline timeline;
  private long lastCompletedCheckpoint;
  private long highestStarted = -1;
  private boolean stalled;

  InstantCoordinator(String operatorName, SinkSettings settings, LeaseKeeper lease) {
    this.operatorName = operatorName;
    this.settings = settings;
    this.lease = lease;
    this.executor =
        Executors.newSingleThreadExecutor(
            new ExecutorThreadFactory("mortar-instants-" + operatorName));
  }

  @Override
  public void start() throws Exception {
    fs = TableFileSystems.open(settings.basePath());
    HudiTable table =
        HudiTable.createOrValidate(
            fs, TableFileSystems.path(settings.basePath()), settings.tableSettings());
    timeline = table.timeline();
    BucketCount.recordOrCheck(fs, table.basePath(), settings.buckets());
    lease.acquire(fs, table.basePath(), settings.writerLeaseTimeout());
    executor.execute(this::deletePublishLeftovers);
  }

  /** Staged files of publishes that died before their rename (older than the lease timeout). */
  private void deletePublishLeftovers() {
    try {
      int deleted = timeline.deletePublishLeftovers(settings.writerLeaseTimeout());
      if (deleted > 0) {
        LOG.info(
            "Deleted {} file(s) interrupted publishes left in {}", deleted, timeline.tempDir());
      }
    } catch (IOException e) {
      LOG.warn(
          "Could not delete the files interrupted publishes left in {}", timeline.tempDir(), e);
    }
  }

  @Override
  public CompletableFuture<CoordinationResponse> handleCoordinationRequest(
      CoordinationRequest request) {
    if (request instanceof StallRequest) {
      return CompletableFuture.supplyAsync(() -> new StallResponse(checkBacklog()), executor);
    }
    InstantRequest instantRequest = (InstantRequest) request;
    return CompletableFuture.supplyAsync(
        () -> {
          lease.checkHeld();
          int oldest = oldestAllowedAttempt.getOrDefault(instantRequest.subtask(), 0);
          if (instantRequest.attempt() < oldest) {
            throw new IllegalStateException(
                "subtask "
                    + instantRequest.subtask()
                    + " attempt "
                    + instantRequest.attempt()
                    + " belongs to a failed execution (attempts before "
                    + oldest
                    + " were reset)");
          }
          String instant = instantFor(instantRequest.afterCheckpoint());
          return new InstantResponse(instant, stalled);
        },
        executor);
  }

  /** Runs on the executor thread. */
  private String instantFor(long afterCheckpoint) {
    String instant = instantAfterCheckpoint.get(afterCheckpoint);
    if (instant != null) {
      return instant;
    }
    if (afterCheckpoint < highestStarted) {
      throw new IllegalStateException(
          "a write task asked for the interval after checkpoint "
              + afterCheckpoint
              + " but instants are started up to checkpoint "
              + highestStarted
              + " and the last completed checkpoint is "
              + lastCompletedCheckpoint);
    }
    checkBacklog();
    long first = Math.min(afterCheckpoint, Math.max(lastCompletedCheckpoint, highestStarted + 1));
    for (long n = first; n <= afterCheckpoint; n++) {
      String started = timeline.startInstant();
      instantAfterCheckpoint.put(n, started);
      LOG.info("Started instant {} for the interval after checkpoint {}", started, n);
    }
    highestStarted = afterCheckpoint;
    return instantAfterCheckpoint.get(afterCheckpoint);
  }

  /**
   * Runs on the executor thread: lists the timeline, decides whether the write tasks stall, logs a
   * change of that decision and returns it. Without the stall it lists nothing and returns false.
   */
  private boolean checkBacklog() {
    if (!settings.writeStall()) {
      return false;
    }
    CompactionBacklog backlog =
        CompactionBacklog.of(TimelineSnapshot.read(fs, timeline.timelineDir()));
    boolean behind =
        backlog.exceeds(settings.stallPendingCompactions(), settings.stallCompactionLag());
    if (behind != stalled) {
      LOG.info(
          "Write stall {} for table {}: {} compaction plans pending (limit {}), {} delta commits"
              + " since the oldest (limit {}; 0 is no limit)",
          behind ? "starts" : "ends",
          settings.tableName(),
          backlog.pendingPlans(),
          settings.stallPendingCompactions(),
          backlog.lag(),
          settings.stallCompactionLag());
    }
    stalled = behind;
    return behind;
  }

  @Override
  public void notifyCheckpointComplete(long checkpointId) {
    executor.execute(
        () -> {
          lastCompletedCheckpoint = Math.max(lastCompletedCheckpoint, checkpointId);
          instantAfterCheckpoint.keySet().removeIf(n -> n < checkpointId);
        });
  }

  @Override
  public void resetToCheckpoint(long checkpointId, @Nullable byte[] checkpointData) {
    lease.restoreWriter(checkpointData);
    executor.execute(
        () -> {
          runningAttempt.forEach(
              (subtask, attempt) -> oldestAllowedAttempt.put(subtask, attempt + 1));
          forget(checkpointId);
        });
  }

  @Override
  public void subtaskReset(int subtask, long checkpointId) {
    executor.execute(
        () -> {
          Integer attempt = runningAttempt.get(subtask);
          if (attempt != null) {
            oldestAllowedAttempt.put(subtask, attempt + 1);
          }
          forget(checkpointId);
        });
  }

  /** Runs on the executor thread. */
  private void forget(long restoredCheckpoint) {
    instantAfterCheckpoint.clear();
    highestStarted = -1;
    lastCompletedCheckpoint = Math.max(0, restoredCheckpoint);
  }

  @Override
  public void checkpointCoordinator(long checkpointId, CompletableFuture<byte[]> result) {
    result.complete(lease.writerState());
  }

  @Override
  public void handleEventFromOperator(int subtask, int attemptNumber, OperatorEvent event) {
    throw new IllegalArgumentException("unexpected operator event " + event);
  }

  @Override
  public void executionAttemptFailed(int subtask, int attemptNumber, @Nullable Throwable reason) {}

  @Override
  public void executionAttemptReady(int subtask, int attemptNumber, SubtaskGateway gateway) {
    executor.execute(() -> runningAttempt.merge(subtask, attemptNumber, Math::max));
  }

  @Override
  public void close() throws Exception {
    executor.shutdownNow();
    executor.awaitTermination(10, TimeUnit.SECONDS);
    try {
      lease.close();
    } finally {
      if (fs != null) {
        fs.close();
      }
    }
  }
}
