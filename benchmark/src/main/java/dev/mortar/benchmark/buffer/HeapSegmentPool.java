package dev.mortar.benchmark.buffer;

import java.util.ArrayDeque;
import java.util.List;
import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.core.memory.MemorySegmentFactory;
import org.apache.flink.table.runtime.util.MemorySegmentPool;

/**
 * The page pool Hudi 1.1 gives its {@code BinaryInMemorySortBuffer}s (its {@code
 * HeapMemorySegmentPool}, shared/spec/hudi-format.md §12.2): {@code byte[]} pages created lazily up
 * to a budget and put on a free list when returned, never freed.
 */
final class HeapSegmentPool implements MemorySegmentPool {
  private final int pageSize;
  private final int maxPages;
  private final ArrayDeque<MemorySegment> free = new ArrayDeque<>();
  private int created;

  HeapSegmentPool(int pageSize, long budgetBytes) {
    this.pageSize = pageSize;
    this.maxPages = (int) (budgetBytes / pageSize);
  }

  @Override
  public int pageSize() {
    return pageSize;
  }

  @Override
  public void returnAll(List<MemorySegment> memory) {
    free.addAll(memory);
  }

  @Override
  public int freePages() {
    return maxPages - created + free.size();
  }

  @Override
  public MemorySegment nextSegment() {
    MemorySegment page = free.poll();
    if (page == null && created < maxPages) {
      created++;
      page = MemorySegmentFactory.allocateUnpooledSegment(pageSize);
    }
    return page;
  }
}
