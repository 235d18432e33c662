package dev.mortar.writer.compaction;

import dev.mortar.writer.options.CompactionTrigger;
import dev.mortar.writer.options.LogSizeThreshold;
import dev.mortar.writer.service.BackgroundService;
import dev.mortar.writer.table.HudiTable;
import dev.mortar.writer.table.InstantIssuer;
import org.apache.hadoop.fs.FileSystem;

/**
 * Runs the {@link CompactionPlanner} on a thread of its own, beside the committer, so planning
 * (listing the table, writing the plan) never holds up a commit or a checkpoint.
 *
 * <p>The committer calls {@link #afterCommit} on its own thread after it has completed delta
 * commits. Unless a planning is still running, that issues the compaction instant {@code C} from
 * the timeline's clock right there, before the committer can complete anything else, and hands it
 * to the planning thread: every delta commit completed before {@code C} is then on the timeline,
 * and every later one completes after {@code C}. At most one planning runs at a time; a failed one
 * fails the next {@link #afterCommit}.
 */
public final class CompactionScheduler implements AutoCloseable {
  private final HudiTable table;
  private final CompactionPlanner planner;
  private final BackgroundService service = new BackgroundService("mortar-compaction-planner");
  private final Runnable onPlanWritten;
  private volatile boolean planWritten;

  /**
   * @param onPlanWritten called on the planning thread after a plan has been published
   */
  public CompactionScheduler(
      FileSystem fs,
      HudiTable table,
      CompactionTrigger trigger,
      LogSizeThreshold threshold,
      Runnable onPlanWritten) {
    this.table = table;
    this.onPlanWritten = onPlanWritten;
    this.planner =
        new CompactionPlanner(fs, table.basePath(), table.timeline(), trigger, threshold);
  }

  /** Starts planning a compaction at a new instant unless a planning is still running. */
  public void afterCommit() {
    if (service.isBusy()) {
      return;
    }
    String instant = table.timeline().newInstantTime(InstantIssuer.COMPACTION_PLANS);
    service.startUnlessRunning(
        "planning compaction " + instant + " of table " + table.basePath(),
        () -> {
          if (!planner.planAt(instant).isEmpty()) {
            planWritten = true;
            onPlanWritten.run();
          }
        });
  }

  /** Whether a planning of this scheduler has published a plan. */
  public boolean hasWrittenPlan() {
    return planWritten;
  }

  /** Waits until a running planning is done; throws if it failed. */
  public void awaitPlanning() {
    service.awaitIdle();
  }

  /**
   * Lets a running planning finish (its plan is published whole or not at all), then stops; throws
   * if that planning failed.
   */
  @Override
  public void close() throws InterruptedException {
    service.close();
  }
}
