package dev.mortar.buffer;

import java.util.concurrent.atomic.AtomicLong;

/**
 * What the strict {@link PagePool}s of this JVM hold right now: pages out to owners, and native
 * bytes of off-heap pages not yet freed. A test reads it where it cannot reach a task's own pool,
 * as for a job on a MiniCluster; after the job's tasks closed, both are back where they were. Only
 * strict pools count here, so a production pool pays nothing for it.
 */
public final class StrictPoolLedger {
  private static final AtomicLong PAGES_HELD = new AtomicLong();
  private static final AtomicLong OFF_HEAP_BYTES = new AtomicLong();

  private StrictPoolLedger() {}

  /** Pages that owners of strict pools hold. */
  public static long pagesHeld() {
    return PAGES_HELD.get();
  }

  /** Native bytes that strict off-heap pools allocated and have not freed. */
  public static long offHeapBytes() {
    return OFF_HEAP_BYTES.get();
  }

  static void pagesInUseChanged(int delta) {
    PAGES_HELD.addAndGet(delta);
  }

  static void offHeapBytesChanged(long delta) {
    OFF_HEAP_BYTES.addAndGet(delta);
  }
}
