package dev.mortar.writer.coordinator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mortar.testing.HudiTableOracle;
import dev.mortar.writer.MortarOptions;
import dev.mortar.writer.it.Changelog;
import dev.mortar.writer.settings.SinkSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutionException;
import org.apache.flink.configuration.Configuration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The coordinator's invariants: one instant per interval, increasing with the checkpoint; and its
 * write stall decision on a hand-made timeline.
 */
class InstantCoordinatorTest {
  @TempDir Path dir;
  private InstantCoordinator coordinator;
  private String path;

  @BeforeEach
  void start() throws Exception {
    coordinator = newCoordinator();
    coordinator.start();
  }

  private InstantCoordinator newCoordinator() {
    return newCoordinator(new Configuration());
  }

  private InstantCoordinator newCoordinator(Configuration options) {
    path = dir.resolve("t").toUri().toString();
    options.set(MortarOptions.PATH, path);
    SinkSettings settings =
        SinkSettings.of(options, Changelog.ROW_TYPE, List.of("id"), List.of(), "t");
    return new InstantCoordinator("write", settings, new LeaseKeeper("test-job", "write", e -> {}));
  }

  @AfterEach
  void close() throws Exception {
    coordinator.close();
  }

  private String instantAfter(long checkpoint) throws Exception {
    return instantAfter(checkpoint, 0);
  }

  private String instantAfter(long checkpoint, int attempt) throws Exception {
    return response(checkpoint, attempt).instant();
  }

  private InstantResponse response(long checkpoint, int attempt) throws Exception {
    return (InstantResponse)
        coordinator.handleCoordinationRequest(new InstantRequest(checkpoint, 0, attempt)).get();
  }

  private boolean stalled() throws Exception {
    return ((StallResponse) coordinator.handleCoordinationRequest(new StallRequest()).get())
        .stalled();
  }

  /** Creates empty instant files named {@code names} in the table's timeline directory. */
  private void timelineFiles(String... names) throws Exception {
    Path timeline = dir.resolve("t").resolve(".hoodie").resolve("timeline");
    for (String name : names) {
      Files.createFile(timeline.resolve(name));
    }
  }

  private void restartWithStallLimits(boolean compaction, int pendingPlans, int lag)
      throws Exception {
    coordinator.close();
    Configuration options = new Configuration();
    options.set(MortarOptions.COMPACTION_SCHEDULE_ENABLED, compaction);
    options.set(MortarOptions.WRITE_STALL_PENDING_COMPACTIONS, pendingPlans);
    options.set(MortarOptions.WRITE_STALL_COMPACTION_LAG, lag);
    coordinator = newCoordinator(options);
    coordinator.start();
  }

  @Test
  void theWriterStallsWhileMorePlansThanTheLimitArePending() throws Exception {
    restartWithStallLimits(true, 1, 0);
    assertThat(response(0, 0).stalled()).isFalse();
    timelineFiles(
        "20250101000001000.compaction.requested", "20250101000002000.compaction.requested");
    assertThat(stalled()).isTrue();
    assertThat(response(1, 0).stalled()).isTrue();
    timelineFiles("20250101000001000_20250101000003000.commit");
    assertThat(stalled()).isFalse();
    assertThat(response(2, 0).stalled()).isFalse();
  }

  @Test
  void theWriterStallsWhileMoreDeltaCommitsThanTheLagCompletedSinceTheOldestPendingPlan()
      throws Exception {
    restartWithStallLimits(true, 0, 2);
    // Completed before the plan, so not in the lag: the plan compacts its log.
    timelineFiles(
        "20250101000001000_20250101000001500.deltacommit",
        "20250101000002000.compaction.requested",
        "20250101000003000_20250101000003500.deltacommit",
        "20250101000004000_20250101000004500.deltacommit");
    assertThat(stalled()).isFalse();
    // Requested before the plan but completed after it: its log is in the slice the plan leaves.
    timelineFiles("20250101000001800_20250101000005500.deltacommit");
    assertThat(stalled()).isTrue();
    assertThat(response(0, 0).stalled()).isTrue();
    timelineFiles("20250101000002000_20250101000006000.commit");
    assertThat(stalled()).isFalse();
  }

  @Test
  void theWriterNeverStallsWithoutScheduledCompactionOrWithBothLimitsOff() throws Exception {
    String[] backlog = {
      "20250101000001000.compaction.requested",
      "20250101000002000.compaction.requested",
      "20250101000003000_20250101000003500.deltacommit",
      "20250101000004000_20250101000004500.deltacommit"
    };
    restartWithStallLimits(false, 1, 1);
    timelineFiles(backlog);
    assertThat(stalled()).isFalse();
    assertThat(response(0, 0).stalled()).isFalse();
    restartWithStallLimits(true, 0, 0);
    assertThat(stalled()).isFalse();
    restartWithStallLimits(true, 1, 0);
    assertThat(stalled()).isTrue();
  }

  @Test
  void everyTaskGetsTheSameInstantForAnInterval() throws Exception {
    String first = instantAfter(0);
    assertThat(instantAfter(0)).isEqualTo(first);
    assertThat(HudiTableOracle.pendingInstants(path)).containsExactly(first);
  }

  @Test
  void aSlowTaskAskingForAnOlderIntervalGetsAnOlderInstant() throws Exception {
    // A fast task passed barrier 1 and asks first; checkpoint 1 has not completed yet, so a slow
    // task may still ask for the interval after checkpoint 0.
    String afterOne = instantAfter(1);
    String afterZero = instantAfter(0);
    assertThat(afterZero).isLessThan(afterOne);
    coordinator.notifyCheckpointComplete(1);
    String afterTwo = instantAfter(2);
    assertThat(afterTwo).isGreaterThan(afterOne);
    assertThat(HudiTableOracle.pendingInstants(path))
        .containsExactly(afterZero, afterOne, afterTwo);
  }

  @Test
  void aResetNeverHandsOutAnInstantOfTheFailedAttempt() throws Exception {
    coordinator.executionAttemptReady(0, 0, null);
    String beforeFailure = instantAfter(3, 0);
    coordinator.resetToCheckpoint(3, null);
    String afterRestore = instantAfter(3, 1);
    assertThat(afterRestore).isGreaterThan(beforeFailure);
    coordinator.executionAttemptReady(0, 1, null);
    coordinator.subtaskReset(0, 3);
    assertThat(instantAfter(3, 2)).isGreaterThan(afterRestore);
  }

  @Test
  void aTaskOfAFailedAttemptGetsNoInstantAfterTheReset() throws Exception {
    coordinator.executionAttemptReady(0, 4, null);
    coordinator.subtaskReset(0, 2);
    assertThatThrownBy(() -> instantAfter(2, 4))
        .isInstanceOf(ExecutionException.class)
        .hasMessageContaining("subtask 0 attempt 4 belongs to a failed execution");
    assertThat(HudiTableOracle.pendingInstants(path)).isEmpty();
  }

  @Test
  void aRestoreBeforeStartIsHandledAsOneAfterIt() throws Exception {
    // A job that starts from a checkpoint or savepoint resets its coordinators before starting
    // them; the restored interval then gets an instant newer than any instant the table had.
    String beforeRestore = instantAfter(6);
    coordinator.close();
    coordinator = newCoordinator();
    coordinator.resetToCheckpoint(7, null);
    coordinator.notifyCheckpointComplete(7);
    coordinator.start();
    String afterRestore = instantAfter(7);
    assertThat(afterRestore).isGreaterThan(beforeRestore);
    assertThat(instantAfter(7)).isEqualTo(afterRestore);
    assertThatThrownBy(() -> instantAfter(6))
        .isInstanceOf(ExecutionException.class)
        .hasMessageContaining("the last completed checkpoint is 7");
  }
}
