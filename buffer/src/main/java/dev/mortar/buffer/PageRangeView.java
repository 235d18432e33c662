package dev.mortar.buffer;

import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.core.memory.MemorySegmentFactory;

/**
 * A byte range of a {@link PageList} as segments to read it from: the page itself when the range
 * lies inside one page, else a reusable heap copy that grows in powers of two to the largest
 * spanning range and is then reused. Empty ranges go to the copy: their address may be the end of
 * the last page.
 */
final class PageRangeView {
  private final MemorySegment[] page = new MemorySegment[1];
  private final MemorySegment[] copy = {MemorySegmentFactory.wrap(new byte[64])};
  private int offset;

  /**
   * Points at {@code [address, address + length)} of {@code data}. The range starts at {@link
   * #offset()} of the returned segments, which stay valid until the next call.
   */
  MemorySegment[] point(PageList data, long address, int length) {
    if (length > 0 && data.inOnePage(address, length)) {
      page[0] = data.pageOf(address);
      offset = data.offsetIn(address);
      return page;
    }
    if (copy[0].size() < length) {
      copy[0] = MemorySegmentFactory.wrap(new byte[Integer.highestOneBit(length - 1) << 1]);
    }
    data.copyTo(address, copy[0], length);
    offset = 0;
    return copy;
  }

  /** Where the range of the last {@link #point} starts in its segments. */
  int offset() {
    return offset;
  }
}
