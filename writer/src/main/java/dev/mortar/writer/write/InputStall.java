package dev.mortar.writer.write;

import dev.mortar.writer.coordinator.InstantClient;
import java.io.IOException;

/**
 * A write task's side of the write stall. The task learns with each instant whether compaction is
 * behind; while it is, {@link #hold} keeps the task from taking its next input, asking the
 * coordinator again every {@link #POLL_MILLIS}, so the input backs up to the source. A task holds
 * for at most {@code write.stall.max-wait} per checkpoint interval, then takes input until the next
 * barrier: the held input delays the barrier, and a checkpoint must still complete. The stall ends
 * when the coordinator finds compaction caught up.
 */
final class InputStall {
  static final long POLL_MILLIS = 200;

  private final InstantClient client;
  private final WriterMetrics metrics;
  private final long maxWaitMillis;
  private boolean stalled;
  private long heldThisInterval;

  InputStall(InstantClient client, WriterMetrics metrics, long maxWaitMillis) {
    this.client = client;
    this.metrics = metrics;
    this.maxWaitMillis = maxWaitMillis;
  }

  /** What the coordinator answered with the interval's instant. */
  void learned(boolean behind) {
    stalled = behind;
    metrics.stalled(behind);
  }

  /** A checkpoint barrier passed: the next interval may hold for {@code max-wait} again. */
  void newInterval() {
    heldThisInterval = 0;
  }

  /** Returns once compaction caught up or this interval held for {@code max-wait}. */
  void hold() throws IOException, InterruptedException {
    while (stalled && heldThisInterval < maxWaitMillis) {
      long pause = Math.min(POLL_MILLIS, maxWaitMillis - heldThisInterval);
      Thread.sleep(pause);
      heldThisInterval += pause;
      metrics.held(pause);
      learned(client.stalled());
    }
  }
}
