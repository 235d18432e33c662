package dev.mortar.buffer;

import java.util.Arrays;
import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.core.memory.MemorySegmentFactory;

/**
 * A byte range of a {@link PageList} as segments to read it from, without copying where a Flink
 * binary format can read it in place:
 *
 * <ul>
 *   <li>the page itself when the range lies inside one page;
 *   <li>the pages it spans, in order, when its first {@code firstPageBytes} lie in the first of
 *       them (a {@code BinaryRowData} reads its fixed-length part from its first segment only; a
 *       string or a nested value reads across segments);
 *   <li>else a reusable heap copy that grows in powers of two to the largest such range and is then
 *       reused.
 * </ul>
 *
 * Empty ranges go to the copy: their address may be the end of the last page. The arrays handed out
 * are reused, one per number of pages spanned.
 */
final class PageRangeView {
  private final MemorySegment[] onePage = new MemorySegment[1];

  /** Arrays for ranges across pages, by the number of pages. */
  private MemorySegment[][] spans = new MemorySegment[4][];

  private final MemorySegment[] copy = {MemorySegmentFactory.wrap(new byte[64])};
  private int offset;

  /**
   * Points at {@code [address, address + length)} of {@code data}. The range starts at {@link
   * #offset()} of the returned segments, which stay valid until the next call.
   *
   * @param firstPageBytes how many leading bytes of the range must lie in its first page for it to
   *     be read in place across pages: a row's fixed-length part; {@code length} to read the range
   *     in place only when it lies inside one page
   */
  MemorySegment[] point(PageList data, long address, int length, int firstPageBytes) {
    if (length > 0 && data.inOnePage(address, length)) {
      onePage[0] = data.pageOf(address);
      offset = data.offsetIn(address);
      return onePage;
    }
    if (length > 0 && data.inOnePage(address, Math.max(1, firstPageBytes))) {
      offset = data.offsetIn(address);
      return pagesOf(data, data.pageIndex(address), data.pageIndex(address + length - 1));
    }
    if (copy[0].size() < length) {
      copy[0] = MemorySegmentFactory.wrap(new byte[Integer.highestOneBit(length - 1) << 1]);
    }
    data.copyTo(address, copy, length);
    offset = 0;
    return copy;
  }

  /** Where the range of the last {@link #point} starts in its segments. */
  int offset() {
    return offset;
  }

  private MemorySegment[] pagesOf(PageList data, int first, int last) {
    int count = last - first + 1;
    if (count >= spans.length) {
      spans = Arrays.copyOf(spans, Integer.highestOneBit(count) << 1);
    }
    MemorySegment[] span = spans[count];
    if (span == null) {
      span = spans[count] = new MemorySegment[count];
    }
    for (int i = 0; i < count; i++) {
      span[i] = data.pageAt(first + i);
    }
    return span;
  }
}
