package dev.mortar.buffer;

import static dev.mortar.buffer.TestRows.keyOfLength;
import static dev.mortar.buffer.TestRows.rowOfSize;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mortar.serde.Operation;
import java.util.ConcurrentModificationException;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.core.memory.MemorySegmentFactory;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.junit.jupiter.api.Test;

class PagePoolTest {
  private static final int PAGE = 128;

  @Test
  void closeFailsNamingEveryOwnerAndItsPages() {
    PagePool pool = PagePool.strictOnHeap(PAGE, 16 * PAGE);
    BucketBuffer a = pool.newBuffer("bucket-a", Deduplication.OFF);
    BucketBuffer b = pool.newBuffer("bucket-b", Deduplication.OFF);
    BucketBuffer idle = pool.newBuffer("bucket-idle", Deduplication.OFF);
    fillPages(a, 2);
    fillPages(b, 1);

    assertThatThrownBy(pool::close)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("3 of 3 pages (128 bytes each, 384 bytes on-heap) still held")
        .hasMessageContaining("bucket-a holds 2")
        .hasMessageContaining("bucket-b holds 1")
        .hasMessageNotContaining("bucket-idle");

    a.release();
    b.clear();
    idle.release();
    assertThat(pool.pagesInUse()).isZero();
    pool.close();
  }

  @Test
  void closeWithPagesStillHeldFreesTheFreePagesFirstAndEveryPageGivenBackAfter() {
    PagePool pool = PagePool.offHeap(PAGE, 16 * PAGE);
    BucketBuffer released = pool.newBuffer("bucket-released", Deduplication.OFF);
    BucketBuffer leaked = pool.newBuffer("bucket-leaked", Deduplication.OFF);
    fillPages(released, 3);
    fillPages(leaked, 2);
    released.release();
    assertThat(pool.pagesCreated()).isEqualTo(5);

    assertThatThrownBy(pool::close)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("bucket-leaked holds 2");
    assertThat(pool.pagesCreated()).as("the three free pages are freed").isEqualTo(2);

    leaked.release();
    assertThat(pool.pagesCreated()).as("a page given back to a closed pool is freed").isZero();
    assertThat(pool.pagesInUse()).isZero();
    pool.close();
  }

  @Test
  void releasedPagesAreReusedNotReallocated() {
    try (PagePool pool = PagePool.onHeap(PAGE, 8 * PAGE)) {
      BucketBuffer buffer = pool.newBuffer("b", Deduplication.ON_APPEND);
      for (int round = 0; round < 50; round++) {
        fillPages(buffer, 7);
        buffer.clear();
      }
      assertThat(pool.pagesCreated()).isEqualTo(7);
      buffer.release();
    }
  }

  @Test
  void largestBufferExceptNeverNamesTheCaller() {
    try (PagePool pool = PagePool.strictOnHeap(PAGE, 16 * PAGE)) {
      BucketBuffer small = pool.newBuffer("small", Deduplication.OFF);
      BucketBuffer large = pool.newBuffer("large", Deduplication.OFF);
      BucketBuffer empty = pool.newBuffer("empty", Deduplication.OFF);
      fillPages(small, 1);
      fillPages(large, 3);

      assertThat(pool.largestBufferExcept(small)).containsSame(large);
      assertThat(pool.largestBufferExcept(empty)).containsSame(large);
      assertThat(pool.largestBufferExcept(large)).containsSame(small);
      small.clear();
      assertThat(pool.largestBufferExcept(large)).isEmpty();
      small.release();
      large.release();
      empty.release();
    }
  }

  @Test
  void largestBufferChoosesOnlyAmongTheCandidates() {
    try (PagePool pool = PagePool.strictOnHeap(PAGE, 16 * PAGE)) {
      BucketBuffer small = pool.newBuffer("small", Deduplication.OFF);
      BucketBuffer medium = pool.newBuffer("medium", Deduplication.OFF);
      BucketBuffer large = pool.newBuffer("large", Deduplication.OFF);
      fillPages(small, 1);
      fillPages(medium, 2);
      fillPages(large, 3);

      assertThat(pool.largestBuffer(owner -> true)).containsSame(large);
      assertThat(pool.largestBuffer(owner -> owner != large)).containsSame(medium);
      assertThat(pool.largestBuffer(owner -> owner == small)).containsSame(small);
      assertThat(pool.largestBuffer(owner -> false)).isEmpty();
      small.release();
      medium.release();
      large.release();
    }
  }

  @Test
  void strictPoolFailsOnDoubleReleaseAndUseAfterRelease() {
    PagePool pool = PagePool.strictOnHeap(PAGE, 16 * PAGE);
    BucketBuffer buffer = pool.newBuffer("strict", Deduplication.OFF);
    fillPages(buffer, 2);
    BufferCursor cursor = buffer.cursor();
    assertThat(cursor.next()).isTrue();
    BinaryRowData heldRow = cursor.row();

    buffer.clear();
    assertThatThrownBy(() -> heldRow.getBinary(0))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("freed");
    assertThatThrownBy(cursor::next).isInstanceOf(ConcurrentModificationException.class);

    buffer.release();
    assertThatThrownBy(buffer::release).hasMessageContaining("strict released twice");
    assertThatThrownBy(
            () -> buffer.append(keyOfLength(1, 'k'), 0, Operation.INSERT, rowOfSize(16, (byte) 0)))
        .hasMessageContaining("strict used after release()");
    assertThatThrownBy(
            () -> pool.releasePage(buffer, MemorySegmentFactory.allocateUnpooledSegment(PAGE)))
        .hasMessageContaining("no owner holds it");
    pool.close();
  }

  @Test
  void strictPoolNamesThePageAndBothOwnersOfAReleaseByTheWrongOwner() {
    PagePool pool = PagePool.strictOffHeap(PAGE, 16 * PAGE);
    BucketBuffer holder = pool.newBuffer("p=1#0", Deduplication.OFF);
    BucketBuffer other = pool.newBuffer("p=2#1", Deduplication.OFF);
    MemorySegment page = pool.acquirePage(holder);

    assertThatThrownBy(() -> pool.releasePage(other, page))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(
            "page @"
                + Integer.toHexString(System.identityHashCode(page))
                + " released by p=2#1 but p=1#0 holds it");
    pool.releasePage(holder, page);
    holder.release();
    other.release();
    pool.close();
  }

  @Test
  void theStrictPropertyMakesOptionPoolsStrictAndTheLedgerCountsTheirPagesAndNativeBytes() {
    long pagesBefore = StrictPoolLedger.pagesHeld();
    long bytesBefore = StrictPoolLedger.offHeapBytes();
    String previous = System.setProperty(BufferOptions.STRICT_PROPERTY, "true");
    PagePool pool;
    try {
      pool = BufferOptions.newPagePool(PAGE, 16 * PAGE, true);
    } finally {
      if (previous == null) {
        System.clearProperty(BufferOptions.STRICT_PROPERTY);
      } else {
        System.setProperty(BufferOptions.STRICT_PROPERTY, previous);
      }
    }
    assertThat(pool.isStrict()).isTrue();
    BucketBuffer buffer = pool.newBuffer("counted", Deduplication.OFF);
    fillPages(buffer, 3);

    assertThat(StrictPoolLedger.pagesHeld() - pagesBefore).isEqualTo(3);
    assertThat(StrictPoolLedger.offHeapBytes() - bytesBefore).isEqualTo(3 * PAGE);
    assertThatThrownBy(pool::close).hasMessageContaining("384 bytes off-heap");
    buffer.release();
    assertThat(StrictPoolLedger.pagesHeld()).isEqualTo(pagesBefore);
    assertThat(StrictPoolLedger.offHeapBytes()).isEqualTo(bytesBefore);
    try (PagePool lenient = BufferOptions.newPagePool(PAGE, 16 * PAGE, true)) {
      assertThat(lenient.isStrict()).as("strict only under the property").isFalse();
    }
  }

  @Test
  void lenientPoolIgnoresASecondRelease() {
    try (PagePool pool = PagePool.offHeap(PAGE, 4 * PAGE)) {
      BucketBuffer buffer = pool.newBuffer("lenient", Deduplication.OFF);
      fillPages(buffer, 1);
      buffer.release();
      buffer.release();
      assertThat(pool.pagesInUse()).isZero();
    }
  }

  @Test
  void rejectsPageSizesAndBudgetsItCannotUse() {
    assertThatThrownBy(() -> PagePool.onHeap(100, 1 << 20))
        .hasMessage(
            "page size ('buffer.page-size') must be a power of two of at least 64 bytes, got 100");
    assertThatThrownBy(() -> PagePool.onHeap(32, 1 << 20)).hasMessageContaining("got 32");
    assertThatThrownBy(() -> PagePool.onHeap(4096, 100))
        .hasMessageContaining("budget ('buffer.memory') must hold at least one page (4096 bytes)")
        .hasMessageContaining("got 100");
  }

  @Test
  void poolFromOptionsUsesTheDefaultsAndTheSetValues() {
    Configuration config = new Configuration();
    try (PagePool pool = BufferOptions.newPagePool(config)) {
      assertThat(pool.pageSize()).isEqualTo(64 * 1024);
      assertThat(pool.budgetBytes()).isEqualTo(256L << 20);
      assertThat(pool.isOffHeap()).isFalse();
    }
    config.set(BufferOptions.PAGE_SIZE, MemorySize.parse("4kb"));
    config.set(BufferOptions.MEMORY, MemorySize.parse("1mb"));
    config.set(BufferOptions.OFF_HEAP, true);
    try (PagePool pool = BufferOptions.newPagePool(config)) {
      assertThat(pool.maxPages()).isEqualTo(256);
      assertThat(pool.isOffHeap()).isTrue();
    }
  }

  /** Appends records with distinct keys until the buffer holds {@code pages}. */
  static void fillPages(BucketBuffer buffer, int pages) {
    for (int i = 0; buffer.pagesHeld() < pages; i++) {
      BinaryStringData key = BinaryStringData.fromString("k" + i);
      assertThat(buffer.append(key, i, Operation.INSERT, rowOfSize(40, (byte) i))).isTrue();
    }
  }
}
