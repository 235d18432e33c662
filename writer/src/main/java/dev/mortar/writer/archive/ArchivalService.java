package dev.mortar.writer.archive;

import dev.mortar.writer.service.BackgroundService;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.MetricGroup;

/**
 * Runs the {@link TimelineArchiver} on a thread of its own after commits, so archival never holds
 * up a commit or a checkpoint. At most one run at a time: {@link #afterCommit} starts one unless
 * one is still running, and a run that failed fails the next {@link #afterCommit}. Metrics in the
 * group {@code mortar}: {@code archivedInstants} (counter), {@code activeTimelineInstants} and
 * {@code archiveFiles} (gauges: the instants the last run left active, the data files of the
 * archive's latest snapshot; -1 before the first run).
 */
public final class ArchivalService implements AutoCloseable {
  private final TimelineArchiver archiver;
  private final BackgroundService service = new BackgroundService("mortar-archiver");
  private final Counter archivedInstants;
  private volatile int activeTimelineInstants = -1;
  private volatile int archiveFiles = -1;

  public ArchivalService(TimelineArchiver archiver, MetricGroup operatorGroup) {
    this.archiver = archiver;
    MetricGroup mortar = operatorGroup.addGroup("mortar");
    archivedInstants = mortar.counter("archivedInstants");
    mortar.gauge("activeTimelineInstants", (Gauge<Integer>) () -> activeTimelineInstants);
    mortar.gauge("archiveFiles", (Gauge<Integer>) () -> archiveFiles);
  }

  /** Starts a run unless one is running; throws if the previous run failed. */
  public void afterCommit() {
    service.startUnlessRunning(
        "archiving the timeline",
        () -> {
          TimelineArchiver.ArchivalRun run = archiver.run();
          archivedInstants.inc(run.archived());
          activeTimelineInstants = run.activeInstants();
          archiveFiles = run.archiveFiles();
        });
  }

  /** Waits for a running run; throws if it failed. */
  public void awaitIdle() {
    service.awaitIdle();
  }

  /** Lets a running run finish, then stops (a failed one is logged). */
  @Override
  public void close() throws InterruptedException {
    service.close();
  }
}
