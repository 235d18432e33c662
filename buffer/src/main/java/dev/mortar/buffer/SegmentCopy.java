package dev.mortar.buffer;

import org.apache.flink.core.memory.MemorySegment;

/**
 * Copies bytes between two {@link MemorySegment}s: with {@code System.arraycopy} when both are on
 * the heap, else with {@link MemorySegment#copyTo}.
 *
 * <p>Why not always {@code copyTo}: on JDK 17 it goes through {@code Unsafe.copyMemory}, whose
 * checks of both pointers and array types the JIT compiles into a long block of machine code at
 * every call site. The append path must stay under the size up to which C2 inlines an already
 * compiled method into its caller ({@code InlineSmallCode}; rfc/0002, "Copies are sized for the
 * JIT"); {@code System.arraycopy} is an intrinsic with compact checks. A heap segment's offsets are
 * its array's indexes.
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
