package dev.mortar.writer.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mortar.testing.HudiTableOracle;
import dev.mortar.testing.Seeds;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import javax.annotation.Nullable;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A disk that fills up, or a folder that turns read-only, under a running job: the job fails once
 * its restarts are used up, with an error naming the file and the cause; no half-written instant
 * becomes visible (Hudi's reader reads exactly the rows of a prefix of the changelog); and once the
 * fault is gone, the job restored from its newest retained checkpoint ends with exactly the
 * expected table. The read-only folder is a real one ({@code chattr +i}) where the test runs as
 * root with that permission, else {@link FaultyLocalFileSystem#readOnly}. {@code -Dmortar.seed=S}
 * fixes the changelog's seed (logged).
 */
class DiskFullITCase {
  private static final Logger LOG = LoggerFactory.getLogger(DiskFullITCase.class);
  private static final Duration RUN_LIMIT = Duration.ofMinutes(2);

  @RegisterExtension static final MiniClusterExtension MINI_CLUSTER = MiniClusters.withSlots(2);

  @TempDir Path dir;
  @Nullable private Path immutable;

  @AfterEach
  void clearFaults() throws Exception {
    FaultyLocalFileSystem.clearDiskFaults();
    if (immutable != null) {
      chattr("-i", immutable);
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"No space left on device", "read-only folder"})
  void theJobFailsNamingTheFileThenARestoreEndsExact(String fault) throws Exception {
    long seed = Seeds.seed("DiskFullITCase");
    Path table = dir.resolve("t");
    SinkJob job =
        SinkJob.at(table.toUri().toString())
            .parallelism(2)
            .restarts(true)
            .perCheckpoint(100)
            .build();
    Changelog changelog = Changelog.random(seed, 3_000, 600, 60, 20);
    LOG.info("seed {}: {} under {}", seed, fault, job);
    JobClient first = submit(job, changelog, null);
    RunningJobs.awaitCommits(job.path(), 2, first, RUN_LIMIT);
    String expectedCause;
    if (fault.startsWith("No space")) {
      FaultyLocalFileSystem.fullAfter(job.path(), 2_000);
      expectedCause = "No space left on device";
    } else if (chattr("+i", table)) {
      immutable = table;
      expectedCause = "Operation not permitted";
    } else {
      FaultyLocalFileSystem.readOnly(job.path());
      expectedCause = "Permission denied";
    }

    Throwable failure = RunningJobs.failureOf(first, RUN_LIMIT);
    Throwable cause = ExceptionUtils.findThrowableWithMessage(failure, expectedCause).orElseThrow();
    assertThat(ExceptionUtils.stringifyException(failure))
        .as("the failure names the file")
        .containsPattern(
            table + "/[^ ]*(\\.log\\.|\\.deltacommit|\\.inflight|\\.requested|\\.parquet)");
    LOG.info("seed {}: the job failed: {}", seed, cause.toString());

    List<String> committed = HudiTableOracle.completedInstants(job.path());
    Map<String, String> names = new HashMap<>();
    HudiTableOracle.latestPerKey(job.path(), new org.apache.hadoop.conf.Configuration())
        .forEach((key, row) -> names.put(key, String.valueOf(row.get("name"))));
    assertThat(changelog.prefixMatching(names, 1, false))
        .as(
            "seed %s: the %s committed instants read as a prefix of the changelog",
            seed, committed.size())
        .isPositive();

    clearFaults();
    immutable = null;
    Optional<String> newest = Restores.newestCompletedCheckpoint(dir.resolve("checkpoints"));
    assertThat(newest).as("a retained checkpoint").isPresent();
    submit(job, changelog, newest.get())
        .getJobExecutionResult()
        .get(RUN_LIMIT.toSeconds(), TimeUnit.SECONDS);
    job.verify(changelog);
    job.verifyNothingUncommittedLeft();
  }

  /** Runs {@code chattr flag folder}; whether it worked. */
  private static boolean chattr(String flag, Path folder) throws IOException, InterruptedException {
    Process process =
        new ProcessBuilder("chattr", flag, folder.toString()).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes());
    boolean done = process.waitFor() == 0;
    if (!done) {
      LOG.info("chattr {} {} is not permitted here: {}", flag, folder, output.trim());
    }
    return done;
  }

  private JobClient submit(SinkJob job, Changelog changelog, @Nullable String restoreFrom)
      throws Exception {
    StreamExecutionEnvironment env =
        job.environment(Restores.retainingCheckpointsIn(dir.resolve("checkpoints")));
    job.addDataStream(env, changelog);
    return Restores.submit(env, "mortar disk fault test", restoreFrom);
  }
}
