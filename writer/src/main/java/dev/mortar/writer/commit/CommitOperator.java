package dev.mortar.writer.commit;

import dev.mortar.writer.archive.ArchivalService;
import dev.mortar.writer.archive.TimelineArchiver;
import dev.mortar.writer.commit.PendingCommits.Pending;
import dev.mortar.writer.compaction.CompactionDispatcher;
import dev.mortar.writer.compaction.CompactionScheduler;
import dev.mortar.writer.compaction.CompactionTask;
import dev.mortar.writer.settings.SinkSettings;
import dev.mortar.writer.table.HudiTable;
import dev.mortar.writer.table.TableFileSystems;
import dev.mortar.writer.table.Timeline;
import dev.mortar.writer.table.WriteStat;
import dev.mortar.writer.table.WriterFence;
import dev.mortar.writer.write.WriteResult;
import dev.mortar.writer.write.WriteResultSerializer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import javax.annotation.Nullable;
import org.apache.flink.api.common.operators.MailboxExecutor;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.hadoop.fs.FileSystem;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one place that commits (parallelism 1). Collects the write tasks' {@link WriteResult}s,
 * checkpoints every uncommitted one, and publishes an instant's {@code T_C.deltacommit} only after
 * the checkpoint that sealed it completed ({@link PendingCommits}); at end of input it commits what
 * is left. On restore it first commits every instant its state holds (their checkpoint completed
 * but the commit file may be missing; committing is idempotent).
 *
 * <p>Instants of failed attempts are aborted (log files deleted, pending files removed) after a
 * commit: every pending instant older than the newest committed one that is not in the book. That
 * is safe because the coordinator starts instants in checkpoint order and a restarted job only gets
 * new, later instants; an instant still being written is always newer.
 *
 * <p>After each round of commits it hands over to the {@link CompactionScheduler} (unless {@code
 * compaction.schedule.enabled} is off), which plans compactions on a thread of its own. With in-job
 * execution on, the {@link CompactionDispatcher} sends the operations of every pending plan
 * downstream: when the operator opens (a restored job's pending plans) and, through the task's
 * mailbox, whenever a new plan has been written. A bounded job ends with no plan pending, and
 * without waiting for a compaction of the whole table that it planned: at end of input the
 * compaction tasks abandon the operations of plans this attempt wrote while the input ran, and
 * those plans are unscheduled (their logs stay in their slices for the next run's first plan), so
 * the job ends as soon as its input is committed; a plan of the run not sent yet is sent then, to
 * be abandoned with the others. Plans found pending when the operator opens (an interrupted
 * compaction of an earlier attempt) are finished, and so is the plan of a job that wrote none while
 * it ran (a batch job committing once, a short one): it plans at its end when one is due.
 *
 * <p>Then it hands over to the {@link ArchivalService} (unless {@code archive.enabled} is off),
 * which moves old instants into the archived timeline on a thread of its own.
 *
 * <p>Every commit file is published, and every archival run changes the archived timeline, only
 * while this job holds the table's writer lease ({@link WriterFence}); archival starts only after
 * such a commit.
 */
public final class CommitOperator extends AbstractStreamOperator<CompactionTask>
    implements OneInputStreamOperator<WriteResult, CompactionTask>, BoundedOneInput {
  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(CommitOperator.class);

  private final SinkSettings settings;

  private transient PendingCommits pending;
  private transient ListState<WriteResult> state;
  private transient FileSystem fs;
  private transient Timeline timeline;
  private transient String schemaJson;
  private transient CommitMetrics metrics;
  @Nullable private transient CompactionScheduler compactions;
  @Nullable private transient CompactionDispatcher dispatcher;
  @Nullable private transient ArchivalService archival;

  public CommitOperator(SinkSettings settings) {
    this.settings = settings;
  }

  @Override
  public void initializeState(StateInitializationContext context) throws Exception {
    super.initializeState(context);
    pending = new PendingCommits();
    metrics = new CommitMetrics(getMetricGroup());
    fs = TableFileSystems.open(settings.basePath());
    HudiTable table =
        HudiTable.createOrValidate(
            fs, TableFileSystems.path(settings.basePath()), settings.tableSettings());
    timeline = table.timeline();
    WriterFence fence =
        settings.writerFence(fs, getRuntimeContext().getJobInfo().getJobId().toString());
    timeline.fenceWith(fence);
    schemaJson = table.avroSchemaJson();
    if (settings.compactionExecution()) {
      dispatcher =
          new CompactionDispatcher(fs, timeline, task -> output.collect(new StreamRecord<>(task)));
      MailboxExecutor mailbox =
          getContainingTask()
              .getMailboxExecutorFactory()
              .createExecutor(getOperatorConfig().getChainIndex());
      mailbox.execute(() -> dispatcher.dispatchPending(true), "dispatch pending compactions");
      compactions =
          new CompactionScheduler(
              fs,
              table,
              settings.compactionTrigger(),
              settings.compactionThreshold(),
              () -> dispatchLater(mailbox));
    } else if (settings.compactionScheduling()) {
      compactions =
          new CompactionScheduler(
              fs, table, settings.compactionTrigger(), settings.compactionThreshold(), () -> {});
    }
    if (settings.archiveEnabled()) {
      archival =
          new ArchivalService(
              new TimelineArchiver(
                  fs, timeline.timelineDir(), timeline.tempDir(), settings.archivalPolicy(), fence),
              getMetricGroup());
    }
    state =
        context
            .getOperatorStateStore()
            .getListState(
                new ListStateDescriptor<>(
                    "mortar-pending-commits", WriteResultSerializer.INSTANCE));
    if (context.isRestored()) {
      for (WriteResult result : state.get()) {
        pending.add(result);
      }
      long restoredFrom = context.getRestoredCheckpointId().orElse(0L);
      pending.seal(restoredFrom, System.currentTimeMillis());
      LOG.info(
          "Restored from checkpoint {}: re-committing {} instant(s)",
          restoredFrom,
          pending.all().size());
      if (commit(pending.committable(restoredFrom))) {
        startServicesAfterCommits();
      }
    }
  }

  /** Called on the planning thread: dispatches the new plan on the task's thread. */
  private void dispatchLater(MailboxExecutor mailbox) {
    try {
      mailbox.execute(() -> dispatcher.dispatchPending(false), "dispatch a new compaction plan");
    } catch (RejectedExecutionException closing) {
      LOG.info("Not dispatching the new compaction plan: the task is closing; a restart will");
    }
  }

  @Override
  public void processElement(StreamRecord<WriteResult> element) {
    pending.add(element.getValue());
  }

  @Override
  public void snapshotState(StateSnapshotContext context) throws Exception {
    super.snapshotState(context);
    pending.seal(context.getCheckpointId(), System.currentTimeMillis());
    state.update(pending.results());
  }

  @Override
  public void notifyCheckpointComplete(long checkpointId) throws Exception {
    super.notifyCheckpointComplete(checkpointId);
    if (commit(pending.committable(checkpointId))) {
      startServicesAfterCommits();
    }
  }

  @Override
  public void endInput() {
    boolean committed = commit(pending.all());
    for (String instant : timeline.pendingInstants()) {
      abort(instant);
    }
    if (compactions != null) {
      compactions.awaitPlanning();
      if (dispatcher != null) {
        dispatcher.dispatchPending(false);
      }
      if (committed && !compactions.hasWrittenPlan()) {
        compactions.afterCommit();
        compactions.awaitPlanning();
      }
    }
    if (archival != null) {
      // also without a commit: the run settles an archival that a failed attempt left half done
      archival.afterCommit();
    }
    if (dispatcher != null) {
      dispatcher.dispatchPending(true);
    }
  }

  /** Commits {@code instants} in order; returns whether there was any. */
  private boolean commit(List<Pending> instants) {
    if (instants.isEmpty()) {
      return false;
    }
    for (Pending instant : instants) {
      List<WriteStat> stats = new ArrayList<>();
      for (WriteResult result : instant.results) {
        stats.addAll(result.stats());
      }
      timeline.complete(instant.instant, stats, schemaJson);
      pending.remove(instant.instant);
      long bytes = stats.stream().mapToLong(WriteStat::sizeBytes).sum();
      long latency =
          instant.sealedAtMillis == 0 ? 0 : System.currentTimeMillis() - instant.sealedAtMillis;
      metrics.committed(stats.size(), bytes, latency);
      LOG.info(
          "Committed instant {} ({}): {} log file(s), {} bytes",
          instant.instant,
          instant.sealedBy == Long.MAX_VALUE
              ? "at end of input"
              : "sealed by checkpoint " + instant.sealedBy,
          stats.size(),
          bytes);
    }
    String newestCommitted = instants.get(instants.size() - 1).instant;
    for (String instant : timeline.pendingInstants()) {
      if (instant.compareTo(newestCommitted) < 0 && !pending.contains(instant)) {
        abort(instant);
      }
    }
    return true;
  }

  private void startServicesAfterCommits() {
    if (compactions != null) {
      compactions.afterCommit();
    }
    if (archival != null) {
      archival.afterCommit();
    }
  }

  private void abort(String instant) {
    timeline.abort(instant);
    metrics.aborted();
    LOG.info("Aborted instant {} (a failed attempt's, or never written)", instant);
  }

  /** A job that ends normally fails if its last archival failed. */
  @Override
  public void finish() throws Exception {
    if (archival != null) {
      archival.awaitIdle();
    }
    super.finish();
  }

  @Override
  public void close() throws Exception {
    try {
      if (compactions != null) {
        compactions.close();
      }
      if (archival != null) {
        archival.close();
      }
      if (fs != null) {
        fs.close();
      }
    } finally {
      super.close();
    }
  }
}
