package dev.mortar.buffer;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.core.memory.MemorySegmentFactory;

/**
 * The pages of one write task: fixed-size Flink {@link MemorySegment}s (heap or off-heap), at most
 * {@code budgetBytes / pageSize} of them, created lazily and reused after release, so in steady
 * state no page goes back to the garbage collector.
 *
 * <p>Every page is held by an owner, a {@link BucketBuffer} made by {@link #newBuffer}. The pool
 * names the largest other owner when memory runs out ({@link #largestBufferExcept}); its {@link
 * #close()} frees every page it can and fails while any owner still holds pages.
 *
 * <p>Strict mode ({@link #strictOnHeap}, {@link #strictOffHeap}, or {@link BufferOptions} under the
 * system property {@value BufferOptions#STRICT_PROPERTY}; for tests) tracks which owner holds each
 * page: giving a page back twice or by the wrong owner throws at once, naming the page and both
 * owners, and a released page is freed instead of reused, so any later access through a stale row
 * or key throws {@code IllegalStateException("segment has been freed")}. A strict pool counts its
 * pages in use and its native bytes in the {@link StrictPoolLedger}.
 *
 * <p>Not thread-safe: one pool belongs to one write task thread.
 */
public final class PagePool implements AutoCloseable {
  /** Largest budget the 32-bit entry addresses of the de-dup index can cover (32 GiB). */
  static final long MAX_BUDGET_BYTES = (1L << 32) * RecordEntryLayout.ALIGNMENT;

  private final int pageSize;
  private final long budgetBytes;
  private final int maxPages;
  private final boolean offHeap;
  private final boolean strict;
  private final ArrayDeque<MemorySegment> freePages = new ArrayDeque<>();
  private final List<BucketBuffer> owners = new ArrayList<>();
  private final Map<MemorySegment, BucketBuffer> holderOfPage;
  private int pagesCreated;
  private int pagesInUse;
  private boolean closed;

  /**
   * A pool of {@code byte[]} pages.
   *
   * @param pageSize bytes per page: a power of two, at least {@value
   *     RecordEntryLayout#MIN_PAGE_SIZE}
   * @param budgetBytes the most page memory this pool may hold; at least one page
   */
  public static PagePool onHeap(int pageSize, long budgetBytes) {
    return new PagePool(pageSize, budgetBytes, false, false);
  }

  /** {@link #onHeap}, with pages outside the Java heap (unsafe memory). */
  public static PagePool offHeap(int pageSize, long budgetBytes) {
    return new PagePool(pageSize, budgetBytes, true, false);
  }

  /** {@link #onHeap} in strict mode, for tests. */
  public static PagePool strictOnHeap(int pageSize, long budgetBytes) {
    return new PagePool(pageSize, budgetBytes, false, true);
  }

  /** {@link #offHeap} in strict mode, for tests. */
  public static PagePool strictOffHeap(int pageSize, long budgetBytes) {
    return new PagePool(pageSize, budgetBytes, true, true);
  }

  private PagePool(int pageSize, long budgetBytes, boolean offHeap, boolean strict) {
    if (pageSize < RecordEntryLayout.MIN_PAGE_SIZE || Integer.bitCount(pageSize) != 1) {
      throw new IllegalArgumentException(
          "page size ('"
              + BufferOptions.PAGE_SIZE.key()
              + "') must be a power of two of at least "
              + RecordEntryLayout.MIN_PAGE_SIZE
              + " bytes, got "
              + pageSize);
    }
    if (budgetBytes < pageSize || budgetBytes > MAX_BUDGET_BYTES) {
      throw new IllegalArgumentException(
          "buffer budget ('"
              + BufferOptions.MEMORY.key()
              + "') must hold at least one page ("
              + pageSize
              + " bytes) and at most "
              + MAX_BUDGET_BYTES
              + " bytes, got "
              + budgetBytes);
    }
    this.pageSize = pageSize;
    this.budgetBytes = budgetBytes;
    this.maxPages = (int) Math.min(Integer.MAX_VALUE, budgetBytes / pageSize);
    this.offHeap = offHeap;
    this.strict = strict;
    this.holderOfPage = strict ? new IdentityHashMap<>() : null;
  }

  public int pageSize() {
    return pageSize;
  }

  public long budgetBytes() {
    return budgetBytes;
  }

  /** Pages the budget allows in total. */
  public int maxPages() {
    return maxPages;
  }

  /** Pages held or reserved by owners right now. */
  public int pagesInUse() {
    return pagesInUse;
  }

  /** Pages allocated and not yet freed, held or free: stays flat in steady state. */
  int pagesCreated() {
    return pagesCreated;
  }

  public boolean isOffHeap() {
    return offHeap;
  }

  /** A new, empty buffer owned by {@code ownerName} (one per bucket), drawing pages from here. */
  public BucketBuffer newBuffer(String ownerName, Deduplication deduplication) {
    checkOpen();
    BucketBuffer buffer =
        switch (deduplication) {
          case OFF -> new NoDedupBuffer(this, ownerName);
          case ON_APPEND -> new DedupOnAppendBuffer(this, ownerName);
          case ON_READ -> new DedupOnReadBuffer(this, ownerName);
        };
    owners.add(buffer);
    return buffer;
  }

  /** The owner other than {@code self} holding the most pages, if any other holds a page. */
  public Optional<BucketBuffer> largestBufferExcept(BucketBuffer self) {
    return largestBuffer(owner -> owner != self);
  }

  /**
   * The owner holding the most pages among those {@code candidate} accepts, if any of them holds a
   * page. A caller whose buffers are not all flushable (a buffer already being flushed) says which
   * are.
   */
  public Optional<BucketBuffer> largestBuffer(Predicate<BucketBuffer> candidate) {
    BucketBuffer largest = null;
    for (BucketBuffer owner : owners) {
      if (owner.pagesHeld() > 0
          && (largest == null || owner.pagesHeld() > largest.pagesHeld())
          && candidate.test(owner)) {
        largest = owner;
      }
    }
    return Optional.ofNullable(largest);
  }

  /**
   * Frees every free page and takes no new owner from then on. Fails, naming each owner and the
   * pages it holds, while any page is still held: a leak is a bug to fix, not to hide. A page given
   * back after this is freed at once, and closing again checks once more.
   */
  @Override
  public void close() {
    closed = true;
    while (!freePages.isEmpty()) {
      free(freePages.pollFirst());
    }
    if (pagesInUse > 0) {
      StringBuilder holders = new StringBuilder();
      for (BucketBuffer owner : owners) {
        if (owner.pagesHeld() > 0) {
          holders.append(holders.length() == 0 ? "" : ", ");
          holders.append(owner.ownerName()).append(" holds ").append(owner.pagesHeld());
        }
      }
      throw new IllegalStateException(
          "page pool closed with "
              + pagesInUse
              + " of "
              + pagesCreated
              + " pages ("
              + pageSize
              + " bytes each, "
              + (long) pagesInUse * pageSize
              + " bytes "
              + (offHeap ? "off-heap" : "on-heap")
              + ") still held: "
              + holders
              + ". Release or clear every BucketBuffer before closing the pool.");
    }
    owners.clear();
  }

  /** Whether {@code pages} more pages can be handed out now. */
  boolean canAcquire(int pages) {
    return pages <= maxPages - pagesInUse;
  }

  /**
   * Sets {@code pages} aside for an owner that will take them later: they count as in use, so
   * {@link #canAcquire} will not promise them to anyone else. The caller has checked {@link
   * #canAcquire}.
   */
  void reserve(int pages) {
    changePagesInUse(pages);
  }

  /** Gives back pages set aside by {@link #reserve}, before taking them or instead of it. */
  void unreserve(int pages) {
    changePagesInUse(-pages);
  }

  /** One page for {@code owner}; the caller has checked {@link #canAcquire}. */
  MemorySegment acquirePage(BucketBuffer owner) {
    if (pagesInUse >= maxPages) {
      throw new IllegalStateException(
          "page pool exhausted: all " + maxPages + " pages in use (caller must check first)");
    }
    MemorySegment page = freePages.pollFirst();
    if (page == null) {
      page =
          offHeap
              ? MemorySegmentFactory.allocateOffHeapUnsafeMemory(pageSize)
              : MemorySegmentFactory.allocateUnpooledSegment(pageSize);
      pagesCreated++;
      if (strict && offHeap) {
        StrictPoolLedger.offHeapBytesChanged(pageSize);
      }
    }
    changePagesInUse(1);
    if (strict) {
      holderOfPage.put(page, owner);
    }
    return page;
  }

  void releasePage(BucketBuffer owner, MemorySegment page) {
    if (strict) {
      BucketBuffer holder = holderOfPage.remove(page);
      if (holder != owner) {
        if (holder != null) {
          holderOfPage.put(page, holder);
        }
        throw new IllegalStateException(
            pageName(page)
                + " released by "
                + owner.ownerName()
                + " but "
                + (holder == null
                    ? "no owner holds it (released twice?)"
                    : holder.ownerName() + " holds it"));
      }
    }
    if (strict || closed) {
      free(page);
    } else {
      freePages.addFirst(page);
    }
    changePagesInUse(-1);
  }

  private void changePagesInUse(int delta) {
    pagesInUse += delta;
    if (strict) {
      StrictPoolLedger.pagesInUseChanged(delta);
    }
  }

  private void free(MemorySegment page) {
    page.free();
    pagesCreated--;
    if (strict && offHeap) {
      StrictPoolLedger.offHeapBytesChanged(-pageSize);
    }
  }

  /** Names a page in an error by its identity (a freed page has no address any more). */
  private static String pageName(MemorySegment page) {
    return "page @" + Integer.toHexString(System.identityHashCode(page));
  }

  /** A buffer gave back its pages and will not take any again. */
  void deregister(BucketBuffer owner) {
    owners.remove(owner);
  }

  boolean isStrict() {
    return strict;
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("page pool is closed");
    }
  }
}
