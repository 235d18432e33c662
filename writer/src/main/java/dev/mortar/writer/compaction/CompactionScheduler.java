package dev.mortar.writer.compaction;

import dev.mortar.writer.table.HudiTable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.annotation.Nullable;
import org.apache.flink.util.concurrent.ExecutorThreadFactory;
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
  private static final long CLOSE_TIMEOUT_SECONDS = 60;

  private final HudiTable table;
  private final CompactionPlanner planner;
  private final ExecutorService executor;
  private final Runnable onPlanWritten;
  @Nullable private Future<?> running;
  @Nullable private String runningInstant;

  /**
   * @param onPlanWritten called on the planning thread after a plan has been published
   */
  public CompactionScheduler(
      FileSystem fs, HudiTable table, int deltaCommits, Runnable onPlanWritten) {
    this.table = table;
    this.onPlanWritten = onPlanWritten;
    this.planner = new CompactionPlanner(fs, table.basePath(), table.timeline(), deltaCommits);
    this.executor =
        Executors.newSingleThreadExecutor(new ExecutorThreadFactory("mortar-compaction-planner"));
  }

  /** Starts planning a compaction at a new instant unless a planning is still running. */
  public void afterCommit() {
    if (running != null) {
      if (!running.isDone()) {
        return;
      }
      awaitRunning();
    }
    String instant = table.timeline().newInstantTime();
    runningInstant = instant;
    running =
        executor.submit(
            () -> {
              if (!planner.planAt(instant).isEmpty()) {
                onPlanWritten.run();
              }
            });
  }

  /** Waits until a running planning is done; throws if it failed. */
  public void awaitPlanning() {
    if (running != null) {
      awaitRunning();
    }
  }

  private void awaitRunning() {
    try {
      running.get();
    } catch (ExecutionException e) {
      throw new IllegalStateException(
          "planning compaction " + runningInstant + " of table " + table.basePath() + " failed",
          e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while planning compaction " + runningInstant, e);
    } finally {
      running = null;
    }
  }

  /**
   * Lets a running planning finish (its plan is published whole or not at all), then stops; throws
   * if that planning failed.
   */
  @Override
  public void close() throws InterruptedException {
    executor.shutdown();
    if (!executor.awaitTermination(CLOSE_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
      executor.shutdownNow();
      return;
    }
    if (running != null) {
      awaitRunning();
    }
  }
}
