package dev.mortar.writer.archive;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ArchivalSelectionTest {

  /** Files of a completed delta commit requested at {@code t}, completed at {@code t + 1}. */
  private static List<String> deltaCommit(int t) {
    return List.of(
        t + ".deltacommit.requested",
        t + ".deltacommit.inflight",
        t + "_" + (t + 1) + ".deltacommit");
  }

  private static List<String> compaction(int t, Integer completion) {
    List<String> files =
        new ArrayList<>(List.of(t + ".compaction.requested", t + ".compaction.inflight"));
    if (completion != null) {
      files.add(t + "_" + completion + ".commit");
    }
    return files;
  }

  private static List<String> requestedTimes(List<ActiveInstant> instants) {
    return instants.stream().map(ActiveInstant::requested).toList();
  }

  private static List<String> select(List<String> files, int min, int max, String cleanRetains) {
    return requestedTimes(
        ArchivalSelection.select(ActiveTimeline.of(files), min, max, cleanRetains));
  }

  private static List<String> deltaCommits(int from, int count) {
    List<String> files = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      files.addAll(deltaCommit(from + 10 * i));
    }
    return files;
  }

  @Test
  void nothingUpToMaxCommitsThenTheOldestDownToMinCommits() {
    assertThat(select(deltaCommits(100, 4), 2, 4, null)).isEmpty();
    assertThat(select(deltaCommits(100, 5), 2, 4, null)).containsExactly("100", "110", "120");
  }

  @Test
  void neverPastAPendingInstantAndKeepsTheCommitBeforeIt() {
    List<String> files = deltaCommits(100, 6);
    files.add("125.deltacommit.requested");
    assertThat(select(files, 1, 3, null)).containsExactly("100", "110");
  }

  @Test
  void neverPastTheNewestCompaction() {
    List<String> files = deltaCommits(100, 6);
    files.addAll(compaction(135, 137));
    assertThat(select(files, 1, 3, null)).containsExactly("100", "110", "120", "130");
    files.addAll(compaction(115, null));
    assertThat(select(files, 1, 3, null)).containsExactly("100");
  }

  @Test
  void neverPastWhatTheNewestCleanRetainsAndOlderCleansGoAlong() {
    List<String> files = deltaCommits(100, 6);
    files.addAll(List.of("112.clean.requested", "112.clean.inflight", "112_113.clean"));
    files.addAll(List.of("114.clean.requested", "114.clean.inflight", "114_115.clean"));
    assertThat(select(files, 1, 3, "130")).containsExactly("100", "110", "112", "120");
  }

  @Test
  void onlyInstantsCompletedBeforeEveryKeptCommitWasRequested() {
    List<String> files = deltaCommits(100, 6);
    files.removeAll(deltaCommit(140));
    files.addAll(List.of("140.deltacommit.requested", "140_155.deltacommit"));
    assertThat(select(files, 1, 3, null)).containsExactly("100", "110", "120", "130");
  }
}
