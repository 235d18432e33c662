package dev.mortar.buffer;

import java.util.Arrays;
import org.apache.flink.core.memory.MemorySegment;

/**
 * The pages one owner holds, seen as one logical address space: address {@code a} is byte {@code a
 * & pageMask} of page {@code a >>> pageShift}. Reads and writes that fit in one page take one
 * access; byte ranges may span pages. Pages come from and go back to the {@link PagePool}; the
 * caller checks {@link PagePool#canAcquire(int)} first, so {@link #addPages(int)} cannot fail
 * halfway.
 */
final class PageList {
  private final PagePool pool;
  private final BucketBuffer owner;
  private final int pageShift;
  private final int pageMask;
  private MemorySegment[] pages = new MemorySegment[4];
  private int pageCount;

  PageList(PagePool pool, BucketBuffer owner) {
    this.pool = pool;
    this.owner = owner;
    this.pageShift = Integer.numberOfTrailingZeros(pool.pageSize());
    this.pageMask = pool.pageSize() - 1;
  }

  int pageCount() {
    return pageCount;
  }

  /** Bytes addressable with the pages held. */
  long capacity() {
    return (long) pageCount << pageShift;
  }

  /** Pages to add so that bytes {@code [0, end)} are addressable. */
  int pagesMissingFor(long end) {
    long needed = (end + pageMask) >>> pageShift;
    return (int) Math.max(0, needed - pageCount);
  }

  /** Takes {@code count} pages from the pool; the caller has checked they are available. */
  void addPages(int count) {
    for (int i = 0; i < count; i++) {
      if (pageCount == pages.length) {
        pages = Arrays.copyOf(pages, pages.length * 2);
      }
      pages[pageCount++] = pool.acquirePage(owner);
    }
  }

  /**
   * Returns every page to the pool, last page first: the pool hands out the page it took back last,
   * so a buffer filled again gets its pages back in the order it had them.
   */
  void releaseAll() {
    for (int i = pageCount - 1; i >= 0; i--) {
      pool.releasePage(owner, pages[i]);
      pages[i] = null;
    }
    pageCount = 0;
  }

  MemorySegment pageOf(long address) {
    return pages[pageIndex(address)];
  }

  /** The index of the page that holds {@code address}. */
  int pageIndex(long address) {
    return (int) (address >>> pageShift);
  }

  MemorySegment pageAt(int index) {
    return pages[index];
  }

  int offsetIn(long address) {
    return (int) (address & pageMask);
  }

  /** Whether {@code [address, address + length)} lies inside one page. */
  boolean inOnePage(long address, int length) {
    return (address & pageMask) + length <= pageMask + 1L;
  }

  int getInt(long address) {
    return pageOf(address).getInt(offsetIn(address));
  }

  long getLong(long address) {
    return pageOf(address).getLong(offsetIn(address));
  }

  void putInt(long address, int value) {
    pageOf(address).putInt(offsetIn(address), value);
  }

  void putLong(long address, long value) {
    pageOf(address).putLong(offsetIn(address), value);
  }

  /**
   * Copies {@code length} bytes of {@code source} (segments of equal size, as Flink's binary
   * formats use them) starting at {@code sourceOffset} to {@code address}. Kept small, so that the
   * JIT inlines the common case (one source segment, one page) into the append.
   */
  void copyFrom(MemorySegment[] source, int sourceOffset, long address, int length) {
    if (length <= 0) {
      return; // an empty key or row may come with an empty segment, and end at the last page's end
    }
    if (inOnePage(address, length)) {
      copyFrom(source, sourceOffset, pageOf(address), address, length);
    } else {
      forEachChunk(address, source, sourceOffset, length, COPY_IN);
    }
  }

  /**
   * {@link #copyFrom(MemorySegment[], int, long, int)} for a range that lies in {@code page}, the
   * page of {@code address}, which the caller has already looked up.
   */
  void copyFrom(
      MemorySegment[] source, int sourceOffset, MemorySegment page, long address, int length) {
    if (sourceOffset + length <= source[0].size()) {
      SegmentCopy.copy(source[0], sourceOffset, page, offsetIn(address), length);
    } else {
      forEachChunk(address, source, sourceOffset, length, COPY_IN);
    }
  }

  /**
   * Copies {@code length} bytes at {@code address} into {@code target}, one segment large enough
   * for them, from offset 0.
   */
  void copyTo(long address, MemorySegment[] target, int length) {
    forEachChunk(address, target, 0, length, COPY_OUT);
  }

  /**
   * Whether the {@code length} bytes at {@code address} equal those at {@code other}. Empty ranges
   * are equal without a look at the pages: an empty key may start at the end of the last page.
   */
  boolean rangesEqual(long address, long other, int length) {
    if (length == 0) {
      return true;
    }
    if (inOnePage(address, length) && inOnePage(other, length)) {
      return pageOf(address).equalTo(pageOf(other), offsetIn(address), offsetIn(other), length);
    }
    return forEachChunk(address, pages, other, length, EQUAL);
  }

  /**
   * Whether the {@code length} bytes at {@code address} equal those of {@code other} (segments of
   * equal size, as Flink's binary formats use them) from {@code otherOffset}; empty ranges are
   * equal, as in {@link #rangesEqual}.
   */
  boolean bytesEqual(long address, MemorySegment[] other, int otherOffset, int length) {
    if (length == 0) {
      return true;
    }
    if (other.length == 1 && inOnePage(address, length)) {
      return pageOf(address).equalTo(other[0], offsetIn(address), otherOffset, length);
    }
    return forEachChunk(address, other, otherOffset, length, EQUAL);
  }

  /**
   * Something done to a chunk: {@code length} bytes at {@code inPage} of a page and at {@code
   * inSegment} of a segment of the other side; {@code false} stops the walk.
   */
  @FunctionalInterface
  private interface ChunkAction {
    boolean apply(MemorySegment page, int inPage, MemorySegment segment, int inSegment, int length);
  }

  private static final ChunkAction COPY_IN =
      (page, inPage, segment, inSegment, length) -> {
        SegmentCopy.copy(segment, inSegment, page, inPage, length);
        return true;
      };

  private static final ChunkAction COPY_OUT =
      (page, inPage, segment, inSegment, length) -> {
        SegmentCopy.copy(page, inPage, segment, inSegment, length);
        return true;
      };

  private static final ChunkAction EQUAL =
      (page, inPage, segment, inSegment, length) ->
          page.equalTo(segment, inPage, inSegment, length);

  /**
   * Walks the {@code length} bytes at {@code address} together with those of {@code other}
   * (segments of equal size) from {@code otherOffset}, in chunks that lie inside one page and one
   * segment, and applies {@code action} to each; stops at the first chunk it answers {@code false}
   * for. The path of every copy and compare whose range crosses a page or segment boundary.
   *
   * @return whether {@code action} answered {@code true} for every chunk
   */
  private boolean forEachChunk(
      long address, MemorySegment[] other, long otherOffset, int length, ChunkAction action) {
    int otherSegmentSize = other[0].size();
    while (length > 0) {
      int inOther = (int) (otherOffset % otherSegmentSize);
      int chunk =
          Math.min(length, Math.min(otherSegmentSize - inOther, pageMask + 1 - offsetIn(address)));
      MemorySegment otherSegment = other[(int) (otherOffset / otherSegmentSize)];
      if (!action.apply(pageOf(address), offsetIn(address), otherSegment, inOther, chunk)) {
        return false;
      }
      length -= chunk;
      address += chunk;
      otherOffset += chunk;
    }
    return true;
  }
}
