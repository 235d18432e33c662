package dev.mortar.logformat;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/** Buffers lent again once given back, never twice, and no more kept than the limit. */
class RecyclingAllocatorTest {

  @Test
  void lendsAGivenBackBufferAgainWithTheRequestedLimit() {
    RecyclingAllocator allocator = new RecyclingAllocator(1 << 20);
    ByteBuffer first = allocator.allocate(1000);
    assertThat(first.capacity()).isEqualTo(1024);
    assertThat(first.limit()).isEqualTo(1000);
    allocator.release(first);
    assertThat(allocator.keptBytes()).isEqualTo(1024);

    ByteBuffer second = allocator.allocate(600);
    assertThat(second).isSameAs(first);
    assertThat(second.limit()).isEqualTo(600);
    assertThat(allocator.keptBytes()).isZero();
  }

  @Test
  void aBufferReleasedTwiceIsLentOnce() {
    RecyclingAllocator allocator = new RecyclingAllocator(1 << 20);
    ByteBuffer buffer = allocator.allocate(64);
    allocator.release(buffer);
    allocator.release(buffer);

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

    assertThat(allocator.keptBytes()).isEqualTo(2048);
    assertThat(allocator.allocate(1024)).isSameAs(b);
    assertThat(allocator.allocate(1024)).isSameAs(a);
    assertThat(allocator.allocate(1024)).isNotSameAs(c);
  }

  @Test
  void forgetsBuffersThatNeverCameBack() {
    RecyclingAllocator allocator = new RecyclingAllocator(1 << 20);
    ByteBuffer dictionaryPage = allocator.allocate(256);
    allocator.forgetLent();
    allocator.release(dictionaryPage);

    assertThat(allocator.keptBytes()).isZero();
  }
}
