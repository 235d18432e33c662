package dev.mortar.writer.it;

import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.flink.core.execution.JobClient;

/** Waiting on a submitted job: for its first commits while it runs, or for its failure. */
final class RunningJobs {
  private RunningJobs() {}

  /** Waits until the table at {@code path} has {@code commits} completed instants. */
  static void awaitCommits(String path, int commits, JobClient job, Duration limit)
      throws Exception {
    long deadline = System.nanoTime() + limit.toNanos();
    while (Restores.completedCommits(path) < commits) {
      if (job.getJobStatus().get().isTerminalState() || System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "job " + job.getJobID() + " did not reach " + commits + " commits while running");
      }
      Thread.sleep(20);
    }
  }

  /** What the job failed with, as its client sees it. */
  static Throwable failureOf(JobClient job, Duration limit) throws Exception {
    try {
      job.getJobExecutionResult().get(limit.toSeconds(), TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      return e;
    }
    throw new AssertionError("job " + job.getJobID() + " did not fail");
  }
}
