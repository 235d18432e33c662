package dev.mortar.buffer;

import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.core.memory.MemorySegmentFactory;

/**
 * A reusable heap copy of a key or row that spans pages, so that it can be read as one segment. It
 * grows in powers of two to the largest such range and is then reused.
 */
final class ScratchCopy {
  private final MemorySegment[] segments = {MemorySegmentFactory.wrap(new byte[64])};

  /** Copies {@code [address, address + length)} of {@code data}; the copy starts at offset 0. */
  MemorySegment[] copy(PageList data, long address, int length) {
    if (segments[0].size() < length) {
      segments[0] = MemorySegmentFactory.wrap(new byte[Integer.highestOneBit(length - 1) << 1]);
    }
    data.copyTo(address, segments[0], length);
    return segments;
  }
}
