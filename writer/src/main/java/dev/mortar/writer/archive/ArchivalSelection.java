package dev.mortar.writer.archive;

import java.util.ArrayList;
import java.util.List;
import javax.annotation.Nullable;

/**
 * Which instants of the active timeline go into the archive, by the rules of Hudi 1.1's archiver
 * (rfc/0007, "Archived (LSM) timeline"), kept to what a Mortar table holds:
 *
 * <ul>
 *   <li>nothing while the active timeline has at most {@code maxCommits} completed commits (delta
 *       commits and compaction commits); then the oldest of them, leaving {@code minCommits};
 *   <li>only commits requested before the boundary, the earliest of: the newest completed commit
 *       before the earliest pending instant (the pending instant itself if there is none), the
 *       newest compaction (pending or completed, so the scheduler still counts the delta commits
 *       since it), and the {@code earliestCommitToRetain} of the newest completed clean;
 *   <li>a prefix only: every archived instant completed before any kept commit or compaction was
 *       requested. A log or base file whose instant is older than the active timeline then belongs
 *       to a slice that is settled, and a reader that treats it as committed is right;
 *   <li>with them, every completed clean requested before the newest archived commit, except the
 *       newest clean, whose {@code earliestCommitToRetain} bounds the next run.
 * </ul>
 */
final class ArchivalSelection {
  private ArchivalSelection() {}

  /**
   * @param instants the active timeline, oldest first
   * @param cleanRetains the newest completed clean's {@code earliestCommitToRetain}, or null
   * @return the instants to archive, oldest first; empty if none
   */
  static List<ActiveInstant> select(
      List<ActiveInstant> instants, int minCommits, int maxCommits, @Nullable String cleanRetains) {
    List<ActiveInstant> commits = new ArrayList<>();
    for (ActiveInstant instant : instants) {
      if (instant.isCompletedCommit()) {
        commits.add(instant);
      }
    }
    if (commits.size() <= maxCommits) {
      return List.of();
    }
    String boundary = boundary(instants, commits, cleanRetains);
    List<ActiveInstant> archived = new ArrayList<>();
    for (ActiveInstant commit : commits) {
      if (archived.size() == commits.size() - minCommits
          || (boundary != null && commit.requested().compareTo(boundary) >= 0)) {
        break;
      }
      archived.add(commit);
    }
    while (!archived.isEmpty() && !completedBeforeTheRest(archived, instants)) {
      archived.remove(archived.size() - 1);
    }
    if (archived.isEmpty()) {
      return List.of();
    }
    return withOldCleans(archived, instants);
  }

  @Nullable
  private static String boundary(
      List<ActiveInstant> instants, List<ActiveInstant> commits, @Nullable String cleanRetains) {
    String boundary = cleanRetains == null || cleanRetains.isEmpty() ? null : cleanRetains;
    for (ActiveInstant instant : instants) {
      if (!instant.isCompleted()) {
        String retained = instant.requested();
        for (ActiveInstant commit : commits) {
          if (commit.requested().compareTo(instant.requested()) < 0) {
            retained = commit.requested();
          }
        }
        boundary = earlier(boundary, retained);
        break;
      }
    }
    for (int i = instants.size() - 1; i >= 0; i--) {
      if (instants.get(i).isCompaction()) {
        boundary = earlier(boundary, instants.get(i).requested());
        break;
      }
    }
    return boundary;
  }

  private static String earlier(@Nullable String a, String b) {
    return a == null || b.compareTo(a) < 0 ? b : a;
  }

  /** Whether every instant of {@code archived} completed before any other commit was requested. */
  private static boolean completedBeforeTheRest(
      List<ActiveInstant> archived, List<ActiveInstant> instants) {
    String latestCompletion = "";
    for (ActiveInstant instant : archived) {
      if (instant.completion().compareTo(latestCompletion) > 0) {
        latestCompletion = instant.completion();
      }
    }
    String newestArchived = archived.get(archived.size() - 1).requested();
    for (ActiveInstant instant : instants) {
      boolean writes = !instant.action().equals(ActiveInstant.CLEAN);
      if (writes
          && instant.requested().compareTo(newestArchived) > 0
          && instant.requested().compareTo(latestCompletion) <= 0) {
        return false;
      }
    }
    return true;
  }

  private static List<ActiveInstant> withOldCleans(
      List<ActiveInstant> archived, List<ActiveInstant> instants) {
    String newestArchived = archived.get(archived.size() - 1).requested();
    ActiveInstant newestClean = null;
    for (ActiveInstant instant : instants) {
      if (instant.isCompleted() && instant.action().equals(ActiveInstant.CLEAN)) {
        newestClean = instant;
      }
    }
    List<ActiveInstant> selected = new ArrayList<>();
    for (ActiveInstant instant : instants) {
      boolean oldClean =
          instant.isCompleted()
              && instant.action().equals(ActiveInstant.CLEAN)
              && instant != newestClean
              && instant.requested().compareTo(newestArchived) < 0;
      if (oldClean || archived.contains(instant)) {
        selected.add(instant);
      }
    }
    return selected;
  }
}
