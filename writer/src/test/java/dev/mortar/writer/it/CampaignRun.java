package dev.mortar.writer.it;

import dev.mortar.buffer.StrictPoolLedger;
import dev.mortar.testing.HudiTableOracle;
import dev.mortar.writer.it.Failures.Fired;
import dev.mortar.writer.it.RunPlan.Interruption;
import dev.mortar.writer.it.TableVerdict.Violation;
import dev.mortar.writer.table.LeaseHolder;
import dev.mortar.writer.table.TableFileSystems;
import dev.mortar.writer.table.WriterLease;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import javax.annotation.Nullable;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.hadoop.fs.FileSystem;

/**
 * Carries out one {@link RunPlan} in a folder of its own on the MiniCluster of this JVM (and, for a
 * killed process, in a JVM of its own), then judges the table: Hudi's reader against the changelog
 * ({@link TableVerdict}), nothing pending or uncommitted left, one file group per bucket, no base
 * file but those of completed compactions, and every buffer page and native byte given back.
 */
final class CampaignRun {
  private static final Duration RUN_LIMIT = Duration.ofMinutes(3);

  /** What a run did and found. */
  record Outcome(
      RunPlan plan,
      List<Fired> fired,
      @Nullable String restoredFrom,
      TableVerdict verdict,
      long millis) {
    boolean interrupted() {
      return restoredFrom != null;
    }
  }

  private final RunPlan plan;
  private final Path dir;
  private final LazyStandaloneCluster standalone;
  private final List<Fired> fired = new ArrayList<>();

  private CampaignRun(RunPlan plan, Path dir, LazyStandaloneCluster standalone) {
    this.plan = plan;
    this.dir = dir;
    this.standalone = standalone;
  }

  /**
   * Runs {@code plan} (whose table lies under {@code dir}; a killed TaskManager's job on {@code
   * standalone}) and judges the table it leaves.
   */
  static Outcome execute(RunPlan plan, Path dir, LazyStandaloneCluster standalone) {
    return new CampaignRun(plan, dir, standalone).execute();
  }

  private Outcome execute() {
    long started = System.nanoTime();
    long pagesBefore = StrictPoolLedger.pagesHeld();
    long bytesBefore = StrictPoolLedger.offHeapBytes();
    String restoredFrom = null;
    String failure = null;
    try {
      restoredFrom = runJobs();
    } catch (Exception | AssertionError e) {
      failure = describe(e);
    } finally {
      fired.addAll(Failures.fired());
      Failures.disarm();
    }
    TableVerdict verdict = failure == null ? judge() : TableVerdict.failedJob(failure);
    checkLedger(verdict, pagesBefore, bytesBefore);
    return new Outcome(
        plan, fired, restoredFrom, verdict, (System.nanoTime() - started) / 1_000_000);
  }

  /** Runs the first job and, if interrupted, the restored one; returns what it restored from. */
  @Nullable
  private String runJobs() throws Exception {
    SinkJob job = plan.job();
    if (plan.interruption() == Interruption.NONE) {
      Failures.arm(plan.faultsBefore());
      if (plan.sql()) {
        job.runSql(plan.changelog());
      } else {
        job.runDataStream(plan.changelog());
      }
      return null;
    }
    if (plan.interruption() == Interruption.TASK_MANAGER_KILLED) {
      return killTaskManager();
    }
    if (plan.haltsAtFault()) {
      return haltProcess();
    }
    String savedState =
        plan.interruption() == Interruption.KILLED_PROCESS ? killProcess() : interruptInJvm();
    if (savedState == null) {
      return null;
    }
    runRestored(savedState);
    return savedState;
  }

  /** Runs the restored job, with its failure points, from {@code savedState} (null: afresh). */
  private void runRestored(@Nullable String savedState) throws Exception {
    Failures.arm(plan.faultsAfter());
    submit(plan.restored(), savedState)
        .getJobExecutionResult()
        .get(RUN_LIMIT.toSeconds(), TimeUnit.SECONDS);
  }

  /**
   * Runs the first job in this JVM with its failure points until it has committed enough, then
   * stops it as the plan says; returns the savepoint or checkpoint to restore from, or null if the
   * job finished first.
   */
  @Nullable
  private String interruptInJvm() throws Exception {
    Failures.arm(plan.faultsBefore());
    JobClient first = submit(plan.job(), null);
    if (!awaitCommits(first)) {
      first.getJobExecutionResult().get(RUN_LIMIT.toSeconds(), TimeUnit.SECONDS);
      return null;
    }
    recordFired();
    if (plan.interruption() == Interruption.SAVEPOINT) {
      return Restores.stopWithSavepoint(
          first, dir.resolve("savepoints").toUri().toString(), RUN_LIMIT);
    }
    if (first.getJobStatus().get() == JobStatus.FINISHED) {
      return null;
    }
    Restores.cancel(first, RUN_LIMIT);
    List<Path> retained = Restores.completedCheckpoints(checkpoints());
    if (retained.isEmpty()) {
      throw new IllegalStateException("no retained checkpoint after the cancel");
    }
    Path from =
        plan.interruption() == Interruption.OLDER_CHECKPOINT
            ? retained.get(0)
            : retained.get(retained.size() - 1);
    return from.toUri().toString();
  }

  /** Runs the first job in a process of its own and kills it; returns its newest checkpoint. */
  private String killProcess() throws Exception {
    JobProcess process =
        JobProcess.start(
            new JobProcess.Spec(plan.job(), plan.changelog(), checkpoints().toString(), null),
            dir,
            "first");
    long deadline = System.nanoTime() + RUN_LIMIT.toNanos();
    while (Restores.completedCommits(plan.job().path()) < plan.commitsBeforeInterruption()) {
      if (!process.isAlive() || System.nanoTime() > deadline) {
        process.kill();
        throw new IllegalStateException(
            "the job process did not commit "
                + plan.commitsBeforeInterruption()
                + " times before it ended or timed out:\n"
                + process.output());
      }
      Thread.sleep(20);
    }
    process.kill();
    return Restores.newestCompletedCheckpoint(checkpoints())
        .orElseThrow(
            () -> new IllegalStateException("no retained checkpoint of the killed process"));
  }

  /**
   * Runs the first job in a process of its own until its failure point halts it, then the restored
   * job from the newest checkpoint that process retained, or afresh if it retained none (a job
   * without state finds the dead process's writer lease, so it is released first); returns what the
   * restored job started from, or null if the first job finished before its point fired.
   */
  @Nullable
  private String haltProcess() throws Exception {
    JobProcess process =
        JobProcess.start(
            new JobProcess.Spec(
                plan.job(),
                plan.changelog(),
                checkpoints().toString(),
                null,
                plan.faultsBefore().get(0)),
            dir,
            "first");
    if (!process.awaitHaltOrSuccess(RUN_LIMIT)) {
      return null;
    }
    fired.add(process.haltedAt());
    Optional<String> newest = Restores.newestCompletedCheckpoint(checkpoints());
    if (newest.isEmpty()) {
      releaseLease();
      runRestored(null);
      return "nothing (no checkpoint retained)";
    }
    runRestored(newest.get());
    return newest.get();
  }

  private void releaseLease() throws IOException {
    String path = plan.job().path();
    try (FileSystem fs = TableFileSystems.open(path)) {
      WriterLease.of(fs, TableFileSystems.path(path), Duration.ofMinutes(1))
          .releaseAnyHolder(
              new LeaseHolder("campaign", "campaign", "localhost", System.currentTimeMillis()));
    }
  }

  /**
   * Runs the job on the standalone cluster, kills its TaskManager with SIGKILL once the table has
   * the plan's commits, starts a new one and waits for the job, which restores its own last
   * checkpoint, to finish. Its source holds its last change until the kill, so the job cannot end
   * before it. Its restarts wait a second each, up to a minute: until the new TaskManager has
   * joined, a restart finds no slot.
   */
  private String killTaskManager() throws Exception {
    StandaloneFlinkCluster cluster = standalone.get();
    SinkJob job = plan.job();
    Configuration restarts = job.clientConfiguration();
    restarts.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 60);
    restarts.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofSeconds(1));
    StreamExecutionEnvironment env =
        job.configured(
            StreamExecutionEnvironment.createRemoteEnvironment(
                "127.0.0.1", cluster.restPort(), restarts));
    SourceGate lastChange =
        new SourceGate(plan.changelog().ops().size() - 1, dir.resolve("killed").toString());
    job.addDataStream(env, plan.changelog(), lastChange);
    JobClient client = env.executeAsync("mortar campaign seed " + plan.seed());
    if (!awaitCommits(client)) {
      throw new IllegalStateException(
          "the job ended before its TaskManager was killed: " + client.getJobStatus().get());
    }
    cluster.killTaskManager();
    lastChange.open();
    cluster.startTaskManager();
    client.getJobExecutionResult().get(RUN_LIMIT.toSeconds(), TimeUnit.SECONDS);
    return "its own checkpoint, after its TaskManager was killed";
  }

  /**
   * Keeps what the first job's points fired and disarms the rest (counted as not reached), so the
   * interruption itself meets no injected failure; the restored job's are collected at the end.
   */
  private void recordFired() {
    fired.addAll(Failures.fired());
    Failures.disarm();
  }

  /**
   * Waits until the table has the plan's commits while the job runs; false if the job ended first.
   */
  private boolean awaitCommits(JobClient job) throws Exception {
    long deadline = System.nanoTime() + RUN_LIMIT.toNanos();
    while (Restores.completedCommits(plan.job().path()) < plan.commitsBeforeInterruption()) {
      if (job.getJobStatus().get().isTerminalState()) {
        return false;
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("the job made too few commits in " + RUN_LIMIT);
      }
      Thread.sleep(20);
    }
    return true;
  }

  private JobClient submit(SinkJob job, @Nullable String restoreFrom) throws Exception {
    StreamExecutionEnvironment env =
        job.environment(Restores.retainingCheckpointsIn(checkpoints()));
    job.addDataStream(env, plan.changelog());
    return Restores.submit(env, "mortar campaign seed " + plan.seed(), restoreFrom);
  }

  private Path checkpoints() {
    return dir.resolve("checkpoints");
  }

  private TableVerdict judge() {
    SinkJob job = plan.restored();
    TableVerdict verdict = TableVerdict.of(job, plan.changelog());
    verdict.check("nothing pending or uncommitted", job::verifyNothingUncommittedLeft);
    verdict.check("one file group per bucket", job::verifyOneFileGroupPerBucket);
    verdict.check(
        "no pending compaction",
        () -> {
          if (!HudiClient.pendingCompactions(job.path()).isEmpty()) {
            throw new IllegalStateException(
                "pending compactions " + HudiClient.pendingCompactions(job.path()));
          }
        });
    if (job.compactionDeltaCommits() > 0) {
      // A short run may end before its only plan completes: the end of input unschedules it and
      // its logs stay for the next plan. The campaign judges what is left, not that one completed.
      verdict.check(
          "only committed base files",
          () -> BaseFiles.read(job.path()).verifyNoStrayBaseFiles(job.path(), "campaign"));
    }
    if (job.cleanRetainCommits() > 0) {
      verdict.check("cleans and archival settled", job::verifyCleansAndArchiveSettled);
    }
    verdict.check(
        "commits",
        () -> {
          if (HudiTableOracle.completedInstants(job.path()).isEmpty()) {
            throw new IllegalStateException("no completed delta commit");
          }
        });
    return verdict;
  }

  /**
   * Counts pages and native bytes still out once the tasks of the run are gone: a task reports
   * itself finished or cancelled after closing its operators, so the ledger should be back.
   */
  private static void checkLedger(TableVerdict verdict, long pages, long bytes) {
    long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
    while ((StrictPoolLedger.pagesHeld() != pages || StrictPoolLedger.offHeapBytes() != bytes)
        && System.nanoTime() < deadline) {
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
    long pagesOut = StrictPoolLedger.pagesHeld() - pages;
    long bytesOut = StrictPoolLedger.offHeapBytes() - bytes;
    if (pagesOut != 0 || bytesOut != 0) {
      verdict.add(Violation.LEAK, pagesOut + " pages and " + bytesOut + " native bytes out");
    }
  }

  private static String describe(Throwable error) {
    StringBuilder text = new StringBuilder(error.toString());
    for (Throwable cause = error.getCause(); cause != null; cause = cause.getCause()) {
      text.append(" <- ").append(cause);
    }
    return text.toString();
  }
}
