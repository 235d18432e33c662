package dev.mortar.logformat;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/**
 * Buffers given back are lent again only in a later content, never twice, and no more are kept than
 * the limit.
 */
class RecyclingAllocatorTest {

  @Test
  void lendsAGivenBackBufferAgainOnlyOnceTheContentEnded() {
    RecyclingAllocator allocator = new RecyclingAllocator(1 << 20);
    ByteBuffer first = allocator.allocate(1000);
    assertThat(first.capacity()).isEqualTo(1024);
    assertThat(first.limit()).isEqualTo(1000);
    allocator.release(first);
    // parquet-mr may still read a buffer it released within the content
    assertThat(allocator.allocate(1000)).isNotSameAs(first);

    allocator.contentEnded();
    assertThat(allocator.keptBytes()).isEqualTo(1024);
    ByteBuffer again = allocator.allocate(600);
    assertThat(again).isSameAs(first);
    assertThat(again.limit()).isEqualTo(600);
    assertThat(allocator.keptBytes()).isZero();
  }

  @Test
  void aBufferReleasedTwiceIsLentOnce() {
    RecyclingAllocator allocator = new RecyclingAllocator(1 << 20);
    ByteBuffer buffer = allocator.allocate(64);
    allocator.release(buffer);
    allocator.release(buffer);
    allocator.contentEnded();

    assertThat(allocator.allocate(64)).isSameAs(buffer);
    assertThat(allocator.allocate(64)).isNotSameAs(buffer);
  }

  @Test
  void keepsNoMoreThanItsLimit() {
    RecyclingAllocator allocator = new RecyclingAllocator(3000);
    ByteBuffer a = allocator.allocate(1024);
    ByteBuffer b = allocator.allocate(1024);
    ByteBuffer c = allocator.allocate(1024);
    allocator.release(a);
    allocator.release(b);
    allocator.release(c);
    allocator.contentEnded();

    assertThat(allocator.keptBytes()).isEqualTo(2048);
    // ByteBuffer.equals compares contents: identity is what counts here
    ByteBuffer first = allocator.allocate(1024);
    ByteBuffer second = allocator.allocate(1024);
    ByteBuffer third = allocator.allocate(1024);
    assertThat(first == a || first == b).isTrue();
    assertThat(second == a || second == b).isTrue();
    assertThat(second).isNotSameAs(first);
    assertThat(third != a && third != b && third != c).isTrue();
  }

  @Test
  void aLongContentHoldsNoMoreThanTheLimitOfWhatItGaveBack() {
    RecyclingAllocator allocator = new RecyclingAllocator(4096);
    for (int page = 0; page < 1000; page++) {
      allocator.release(allocator.allocate(1024));
    }
    allocator.contentEnded();

    assertThat(allocator.keptBytes()).isEqualTo(4096);
  }

  @Test
  void forgetsBuffersThatNeverCameBack() {
    RecyclingAllocator allocator = new RecyclingAllocator(1 << 20);
    ByteBuffer dictionaryPage = allocator.allocate(256);
    allocator.contentEnded();
    allocator.release(dictionaryPage);
    allocator.contentEnded();

    assertThat(allocator.keptBytes()).isZero();
  }
}
