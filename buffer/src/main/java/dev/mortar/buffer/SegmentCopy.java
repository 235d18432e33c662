package dev.mortar.buffer;

import org.apache.flink.core.memory.MemorySegment;

/**
 * Copies bytes between two {@link MemorySegment}s: with {@code System.arraycopy} when both are on
 * the heap, else with {@link MemorySegment#copyTo}.
 *
 * <p>Why not always {@code copyTo}: on JDK 17 it goes through {@code Unsafe.copyMemory}, whose
 * checks of both pointers and array types the JIT compiles into some 400 bytes of machine code at
 * every call site. In {@link BucketBuffer#append} that pushed the compiled method past the size up
 * to which C2 inlines an already compiled method into its caller ({@code InlineSmallCode}, 2,500
 * bytes), so every append was a call (rfc/0002). {@code System.arraycopy} is an intrinsic with
 * compact checks. A heap segment's offsets are its array's indexes.
 *
 * <p>Unlike {@code copyTo}, the heap path does not refuse a freed segment: the buffer copies only
 * from and into pages it holds, and from rows its caller hands over.
 */
final class SegmentCopy {
  private SegmentCopy() {}

  static void copy(
      MemorySegment source, int sourceOffset, MemorySegment target, int targetOffset, int length) {
    byte[] from = source.getHeapMemory();
    byte[] to = target.getHeapMemory();
    if (from != null && to != null) {
      System.arraycopy(from, sourceOffset, to, targetOffset, length);
    } else {
      source.copyTo(sourceOffset, target, targetOffset, length);
    }
  }
}
