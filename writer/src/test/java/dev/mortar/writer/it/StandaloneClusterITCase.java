package dev.mortar.writer.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mortar.testing.HudiTableOracle;
import dev.mortar.testing.Seeds;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Exactly-once across the loss of a process: a job on a standalone session cluster (JobManager and
 * TaskManager in their own JVMs, {@link StandaloneFlinkCluster}) has its TaskManager killed with
 * SIGKILL once the table has completed commits, mid-stream, wherever the write and flush threads
 * are at that moment (a log file half written, a commit half published). A new TaskManager joins,
 * the job restores its last checkpoint and finishes. Hudi's reader must then show exactly the
 * expected state, with nothing pending and no log file of an uncommitted instant. {@code
 * -Dmortar.seed=S} re-runs one changelog.
 */
class StandaloneClusterITCase {
  private static final Logger LOG = LoggerFactory.getLogger(StandaloneClusterITCase.class);
  private static final int CHANGES = 30_000;
  private static final int COMMITS_BEFORE_KILL = 3;

  @TempDir Path dir;

  @Test
  void killedTaskManagerLosesAndDuplicatesNothing() throws Exception {
    long seed = Seeds.seed("StandaloneClusterITCase");
    SinkJob job =
        SinkJob.at(dir.resolve("t").toUri().toString())
            .parallelism(2)
            .partitioned(true)
            .ordering(true)
            .buckets(4)
            .perCheckpoint(500)
            .restarts(true)
            .build();
    Changelog changelog = Changelog.random(seed, CHANGES, 5_000, 100, 30);
    LOG.info("seed {}: {} on a standalone cluster", seed, job);
    try (StandaloneFlinkCluster cluster = new StandaloneFlinkCluster(dir.resolve("cluster"), 2)) {
      cluster.startTaskManager();
      StreamExecutionEnvironment env =
          job.configured(
              StreamExecutionEnvironment.createRemoteEnvironment(
                  "127.0.0.1", cluster.restPort(), job.clientConfiguration()));
      job.addDataStream(env, changelog);
      JobClient client = env.executeAsync("mortar on a standalone cluster");
      awaitCompletedInstants(job.path(), client, cluster);
      int committedBeforeKill = HudiTableOracle.completedInstants(job.path()).size();
      cluster.killTaskManager();
      cluster.startTaskManager();
      client.getJobExecutionResult().get(3, TimeUnit.MINUTES);
      assertThat(cluster.restGet("/jobs/" + client.getJobID() + "/exceptions"))
          .as("seed %s: the job failed over once the TaskManager was gone", seed)
          .containsPattern("\"entries\"\\s*:\\s*\\[\\s*\\{")
          .containsIgnoringCase("taskmanager");
      assertThat(HudiTableOracle.completedInstants(job.path()))
          .as("seed %s: commits after the restore", seed)
          .hasSizeGreaterThan(committedBeforeKill);
    }
    job.verify(changelog);
    job.verifyNothingUncommittedLeft();
  }

  /** Waits until the table has {@value #COMMITS_BEFORE_KILL} completed instants. */
  private static void awaitCompletedInstants(
      String path, JobClient client, StandaloneFlinkCluster cluster) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
    while (System.nanoTime() < deadline) {
      if (client.getJobStatus().get().isGloballyTerminalState()) {
        throw new AssertionError(
            "job ended before the TaskManager was killed; TaskManager output:\n"
                + cluster.output("taskmanager-0"));
      }
      if (tableExists(path)
          && HudiTableOracle.completedInstants(path).size() >= COMMITS_BEFORE_KILL) {
        return;
      }
      Thread.sleep(20);
    }
    throw new AssertionError(
        "no "
            + COMMITS_BEFORE_KILL
            + " commits in 2 minutes; TaskManager output:\n"
            + cluster.output("taskmanager-0"));
  }

  private static boolean tableExists(String path) {
    return java.nio.file.Files.exists(
        Path.of(java.net.URI.create(path)).resolve(".hoodie").resolve("hoodie.properties"));
  }
}
