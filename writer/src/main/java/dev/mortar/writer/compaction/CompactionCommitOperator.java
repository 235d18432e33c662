package dev.mortar.writer.compaction;

import dev.mortar.writer.settings.SinkSettings;
import dev.mortar.writer.table.CompactionWriteStat;
import dev.mortar.writer.table.HudiTable;
import dev.mortar.writer.table.TableFileSystems;
import dev.mortar.writer.table.Timeline;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.hadoop.fs.FileSystem;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Commits compactions (parallelism 1): collects the {@link CompactionResult}s of each instant and,
 * once every operation of its plan has its base file, publishes {@code C_X.commit} with one write
 * stat per base file. A plan of which the end of input abandoned an operation is unscheduled once
 * every operation has answered ({@link Timeline#unscheduleCompaction}). Results are not
 * checkpointed: after a restore the plan is dispatched and executed again, so a compaction commits
 * only with base files of one attempt. After each commit it starts the {@link AfterCompaction}
 * service it was given (the cleaner), which runs beside it; that service also starts once when the
 * operator opens, to finish what a failed attempt left.
 */
public final class CompactionCommitOperator extends AbstractStreamOperator<Void>
    implements OneInputStreamOperator<CompactionResult, Void> {
  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(CompactionCommitOperator.class);
  private static final String LATEST = "99999999999999999";

  private final SinkSettings settings;
  private final AfterCompaction afterCompaction;
  private final boolean fenced;

  private transient FileSystem fs;
  private transient Timeline timeline;
  private transient String schemaJson;

  /** The answers so far to each plan not yet committed or unscheduled, by instant. */
  private transient Map<String, PlanAnswers> answers;

  private transient CompactionMetrics metrics;
  private transient volatile TimelineSnapshot lastSnapshot;
  private transient AfterCompaction.Service service;

  /**
   * @param fenced whether the committer runs in the job that holds the table's writer lease (a
   *     Mortar sink's job), whose commits the lease fences; the offline compactor holds none
   */
  public CompactionCommitOperator(
      SinkSettings settings, AfterCompaction afterCompaction, boolean fenced) {
    this.settings = settings;
    this.afterCompaction = afterCompaction;
    this.fenced = fenced;
  }

  @Override
  public void open() throws Exception {
    super.open();
    fs = TableFileSystems.open(settings.basePath());
    HudiTable table =
        HudiTable.createOrValidate(
            fs, TableFileSystems.path(settings.basePath()), settings.tableSettings());
    timeline = table.timeline();
    if (fenced) {
      timeline.fenceWith(
          settings.writerFence(fs, getRuntimeContext().getJobInfo().getJobId().toString()));
    }
    schemaJson = table.avroSchemaJson();
    answers = new HashMap<>();
    lastSnapshot = TimelineSnapshot.read(fs, timeline.timelineDir());
    metrics =
        CompactionMetrics.forCommitter(
            getMetricGroup(),
            () -> lastSnapshot.pendingCompactions().size(),
            () -> {
              TimelineSnapshot snapshot = lastSnapshot;
              String oldestPending =
                  snapshot.pendingCompactions().isEmpty()
                      ? snapshot.latestCompactionBefore(LATEST)
                      : snapshot.pendingCompactions().first();
              return snapshot.deltaCommitsCompletedBetween(oldestPending, LATEST);
            });
    service = afterCompaction.open(fs, table, getMetricGroup());
  }

  @Override
  public void processElement(StreamRecord<CompactionResult> element) {
    CompactionResult result = element.getValue();
    String instant = result.instant();
    PlanAnswers plan = answers.computeIfAbsent(instant, key -> new PlanAnswers());
    plan.add(result);
    if (plan.written.size() + plan.abandoned.size() < result.planSize()) {
      return;
    }
    answers.remove(instant);
    if (plan.abandoned.isEmpty()) {
      commit(instant, plan);
    } else {
      timeline.unscheduleCompaction(instant);
      lastSnapshot = TimelineSnapshot.read(fs, timeline.timelineDir());
      metrics.unscheduled();
      LOG.info(
          "Unscheduled compaction {}: the input ended with {} of its {} file group(s) compacted;"
              + " their logs stay for the next plan",
          instant,
          plan.written.size(),
          result.planSize());
    }
  }

  private void commit(String instant, PlanAnswers plan) {
    List<CompactionWriteStat> stats = new ArrayList<>(plan.written.values());
    timeline.completeCompaction(instant, stats, schemaJson);
    long millis = (System.nanoTime() - plan.startNanos) / 1_000_000;
    lastSnapshot = TimelineSnapshot.read(fs, timeline.timelineDir());
    metrics.committed(millis);
    LOG.info(
        "Committed compaction {}: {} base file(s), {} record(s), {} bytes, {} log file(s) compacted",
        instant,
        stats.size(),
        stats.stream().mapToLong(CompactionWriteStat::numWrites).sum(),
        stats.stream().mapToLong(CompactionWriteStat::sizeBytes).sum(),
        stats.stream().mapToLong(CompactionWriteStat::logFiles).sum());
    service.compactionCommitted(instant);
  }

  /** A job that ends normally fails if its last clean failed. */
  @Override
  public void finish() throws Exception {
    if (service != null) {
      service.awaitIdle();
    }
    super.finish();
  }

  @Override
  public void close() throws Exception {
    try {
      if (service != null) {
        service.close();
      }
    } finally {
      try {
        if (fs != null) {
          fs.close();
        }
      } finally {
        super.close();
      }
    }
  }

  /** The answers to one plan's operations: base files written, file groups abandoned. */
  private static final class PlanAnswers {
    final Map<FileGroupId, CompactionWriteStat> written = new LinkedHashMap<>();
    final Set<FileGroupId> abandoned = new HashSet<>();

    /** When the plan's first written base file started: its answer's time minus its duration. */
    long startNanos;

    void add(CompactionResult result) {
      CompactionWriteStat stat = result.stat();
      if (stat == null) {
        abandoned.add(result.fileGroup());
        return;
      }
      if (written.isEmpty()) {
        startNanos = System.nanoTime() - stat.millis() * 1_000_000;
      }
      written.put(result.fileGroup(), stat);
    }
  }
}
