package dev.mortar.writer.archive;

import dev.mortar.writer.service.BackgroundService;

/**
 * Runs the {@link TimelineArchiver} on a thread of its own after commits, so archival never holds
 * up a commit or a checkpoint. At most one run at a time: {@link #afterCommit} starts one unless
 * one is still running, and a run that failed fails the next {@link #afterCommit}.
 */
public final class ArchivalService implements AutoCloseable {
  private final TimelineArchiver archiver;
  private final BackgroundService service = new BackgroundService("mortar-archiver");

  public ArchivalService(TimelineArchiver archiver) {
    this.archiver = archiver;
  }

  /** Starts a run unless one is running; throws if the previous run failed. */
  public void afterCommit() {
    service.startUnlessRunning("archiving the timeline", archiver::run);
  }

  /** Lets a running run finish, then stops; throws if it failed. */
  @Override
  public void close() throws InterruptedException {
    service.close();
  }
}
