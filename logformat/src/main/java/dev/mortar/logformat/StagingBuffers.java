package dev.mortar.logformat;

import java.lang.ref.Cleaner;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.core.memory.MemorySegmentFactory;

/**
 * The native buffers that direct I/O log files ({@link DirectLogFileOutput}) stage their bytes in:
 * {@value #STAGE_BYTES} bytes each, aligned for {@code O_DIRECT}, owned one per writing thread. A
 * file takes its thread's buffer when it is created and gives it back when it is closed, for the
 * thread's next file; a thread that writes no more frees its buffer with {@link
 * #releaseThisThread()} (a write task's flush thread does as it ends). A buffer given back while
 * the thread already holds one is freed at once, and one that is never released is freed once
 * nothing reaches it any more (its thread is gone). {@link #nativeBytes()} counts every buffer not
 * yet freed.
 */
public final class StagingBuffers {
  static final int STAGE_BYTES = 1 << 20;

  /** Where a staging buffer starts in memory; enough for the disks' logical block sizes. */
  static final int MEMORY_ALIGNMENT = 4096;

  private static final int ALLOCATED_BYTES = STAGE_BYTES + MEMORY_ALIGNMENT;
  private static final AtomicLong NATIVE_BYTES = new AtomicLong();
  private static final Cleaner UNREACHABLE = Cleaner.create();
  private static final ThreadLocal<Stage> SPARE = new ThreadLocal<>();

  /**
   * One staging buffer: the aligned bytes files write into, freed once, explicitly or when lost.
   */
  static final class Stage {
    private final ByteBuffer bytes;
    private final Cleaner.Cleanable memory;

    private Stage() {
      MemorySegment segment =
          MemorySegmentFactory.allocateOffHeapUnsafeMemory(
              ALLOCATED_BYTES, null, () -> NATIVE_BYTES.addAndGet(-ALLOCATED_BYTES));
      NATIVE_BYTES.addAndGet(ALLOCATED_BYTES);
      this.bytes = segment.getOffHeapBuffer().alignedSlice(MEMORY_ALIGNMENT);
      this.memory = UNREACHABLE.register(this, segment::free);
    }

    /** The buffer, emptied and limited to {@value #STAGE_BYTES} bytes when taken. */
    ByteBuffer bytes() {
      return bytes;
    }

    private void free() {
      memory.clean();
    }
  }

  private StagingBuffers() {}

  /** Native bytes of staging buffers allocated and not freed, over all threads. */
  public static long nativeBytes() {
    return NATIVE_BYTES.get();
  }

  /** Frees the calling thread's staging buffer, if it holds one; its next file allocates anew. */
  public static void releaseThisThread() {
    Stage spare = SPARE.get();
    if (spare != null) {
      SPARE.remove();
      spare.free();
    }
  }

  /** The calling thread's staging buffer for a file it creates; allocated when it has none. */
  static Stage take() {
    Stage stage = SPARE.get();
    if (stage == null) {
      stage = new Stage();
    } else {
      SPARE.remove();
    }
    stage.bytes().clear().limit(STAGE_BYTES);
    return stage;
  }

  /** Gives back a buffer a closed file of the calling thread took; it must not be used after. */
  static void giveBack(Stage stage) {
    if (SPARE.get() == null) {
      SPARE.set(stage);
    } else {
      stage.free();
    }
  }
}
