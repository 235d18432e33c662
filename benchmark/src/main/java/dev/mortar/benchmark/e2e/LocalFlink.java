package dev.mortar.benchmark.e2e;

import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.flink.api.common.JobID;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.jobgraph.JobGraph;
import org.apache.flink.runtime.jobmaster.JobResult;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.bridge.java.StreamStatementSet;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;

/**
 * One embedded Flink cluster (one TaskManager with {@code parallelism} slots) that runs the
 * benchmark's jobs one after the other, like a TaskManager that outlives its jobs.
 *
 * <p>Bounded jobs with checkpointing end only after a final checkpoint, which Flink triggers at the
 * next periodic interval: up to 20 s of idle time that belongs to no system. Once the source has
 * emitted every row, this runner triggers checkpoints back to back until the job ends, so the job
 * ends as soon as the sink has flushed and committed. Periodic checkpoints during the run are
 * unchanged.
 */
public final class LocalFlink implements AutoCloseable {
  private final RunSpec spec;
  private final Configuration config;
  private final MiniCluster cluster;

  private LocalFlink(RunSpec spec, Configuration config, MiniCluster cluster) {
    this.spec = spec;
    this.config = config;
    this.cluster = cluster;
  }

  private static final int MANAGED_MEMORY_MIB_PER_SLOT = 256;

  /** Starts a cluster configured for {@code spec} (slots, checkpoints, object reuse, metrics). */
  public static LocalFlink start(RunSpec spec) throws Exception {
    Configuration config = new Configuration();
    config.setString("parallelism.default", Integer.toString(spec.parallelism()));
    config.setString("execution.checkpointing.interval", spec.checkpointMillis() + " ms");
    config.setString("pipeline.object-reuse", Boolean.toString(spec.objectReuse()));
    // Any free port: other MiniClusters (tests, other runs) may hold Flink's default 8081.
    config.setString("rest.bind-port", "0");
    // A failing system fails its run at once instead of restarting until the timeout.
    config.setString("restart-strategy.type", "none");
    config.setString("table.exec.sink.keyed-shuffle", spec.shuffled() ? "FORCE" : "AUTO");
    // 256 MiB of managed memory per slot, 'buffer.memory''s default: what a write task's pages get
    // with 'buffer.managed-memory'. Nothing else in the measured jobs takes managed memory.
    config.setString(
        "taskmanager.memory.managed.size",
        (MANAGED_MEMORY_MIB_PER_SLOT * spec.parallelism()) + "m");
    JobMetrics.configure(config);
    MiniCluster cluster =
        new MiniCluster(
            new MiniClusterConfiguration.Builder()
                .setConfiguration(config)
                .setNumTaskManagers(1)
                .setNumSlotsPerTaskManager(spec.parallelism())
                .build());
    cluster.start();
    return new LocalFlink(spec, config, cluster);
  }

  /**
   * Runs {@code INSERT INTO <sink> SELECT * FROM workload} with {@code rows} rows into a fresh
   * table at {@code tableDir}, and returns when the job has finished.
   */
  public void runJob(long rows, Path tableDir) throws Exception {
    runJob(rows, tableDir, () -> {});
  }

  /** As {@link #runJob(long, Path)}, calling {@code progress} about once a second while it runs. */
  public void runJob(long rows, Path tableDir, Runnable progress) throws Exception {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(config);
    StreamTableEnvironment tableEnv = StreamTableEnvironment.create(env);
    for (String statement : spec.workload().sourceStatements(rows)) {
      tableEnv.executeSql(statement);
    }
    String sink = spec.system().createSink(tableEnv, spec.workload(), tableDir, spec.buckets());
    StreamStatementSet statements = tableEnv.createStatementSet();
    statements.addInsertSql("INSERT INTO " + sink + " SELECT * FROM workload");
    statements.attachAsDataStream();
    JobGraph job = env.getStreamGraph().getJobGraph();

    JobID jobId = cluster.submitJob(job).get().getJobID();
    CompletableFuture<JobResult> result = cluster.requestJobResult(jobId);
    awaitSourceEnd(rows, result, progress);
    while (!result.isDone()) {
      // One checkpoint at a time; a trigger that fails (tasks still finishing) is retried shortly.
      CompletableFuture<?> checkpoint = cluster.triggerCheckpoint(jobId);
      CompletableFuture.anyOf(checkpoint, result).exceptionally(e -> null).get();
      if (checkpoint.isCompletedExceptionally() && !result.isDone()) {
        Thread.sleep(50);
      }
    }
    JobResult jobResult = result.get();
    if (jobResult.getSerializedThrowable().isPresent()) {
      throw new IllegalStateException(
          spec.system().flagName() + " job failed",
          jobResult.getSerializedThrowable().get().deserializeError(getClass().getClassLoader()));
    }
  }

  private static void awaitSourceEnd(
      long rows, CompletableFuture<JobResult> result, Runnable progress) throws Exception {
    long nextProgress = System.nanoTime() + 1_000_000_000L;
    while (JobMetrics.emitted() < rows) {
      if (System.nanoTime() >= nextProgress) {
        progress.run();
        nextProgress += 1_000_000_000L;
      }
      try {
        result.get(10, TimeUnit.MILLISECONDS);
        return;
      } catch (TimeoutException stillRunning) {
        // poll again
      }
    }
  }

  @Override
  public void close() throws Exception {
    cluster.close();
  }
}
