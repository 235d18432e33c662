package dev.mortar.logformat;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class RecyclingHeapAllocatorTest {
  private final RecyclingHeapAllocator allocator = new RecyclingHeapAllocator();

  @Test
  void aBufferHasTheSizeAskedForOverAPowerOfTwoArray() {
    ByteBuffer buffer = allocator.allocate(100);

    assertThat(buffer.capacity()).isEqualTo(100);
    assertThat(buffer.position()).isZero();
    assertThat(buffer.limit()).isEqualTo(100);
    assertThat(buffer.array()).hasSize(128);
    assertThat(buffer.arrayOffset()).isZero();
    assertThat(allocator.allocate(1).array()).hasSize(64);
    assertThat(allocator.allocate(4096).array()).hasSize(4096);
    assertThat(allocator.isDirect()).isFalse();
  }

  @Test
  void aReleasedBufferIsLentAgainZeroed() {
    ByteBuffer first = allocator.allocate(100);
    first.put(new byte[] {1, 2, 3});
    allocator.release(first);

    ByteBuffer again = allocator.allocate(120);
    assertThat(again.array()).isSameAs(first.array());
    assertThat(again.capacity()).isEqualTo(120);
    byte[] bytes = new byte[120];
    again.get(bytes);
    assertThat(bytes).containsOnly((byte) 0);
    assertThat(allocator.allocate(100).array()).isNotSameAs(first.array());
  }

  @Test
  void aSecondReleaseIsIgnoredEvenOnceTheArrayIsLentAgain() {
    ByteBuffer buffer = allocator.allocate(64);
    allocator.release(buffer);
    allocator.release(buffer);
    assertThat(allocator.pooledBytes()).isEqualTo(64);

    ByteBuffer again = allocator.allocate(64);
    allocator.release(buffer);

    assertThat(again.array()).isSameAs(buffer.array());
    assertThat(allocator.pooledBytes()).isZero();
    assertThat(allocator.allocate(64).array()).isNotSameAs(buffer.array());
  }

  @Test
  void onlyTheBufferLentIsTakenBack() {
    ByteBuffer buffer = allocator.allocate(64);
    allocator.release(buffer.duplicate());
    allocator.release(buffer.slice());

    assertThat(allocator.pooledBytes()).isZero();
    allocator.release(buffer);
    assertThat(allocator.pooledBytes()).isEqualTo(64);
  }

  @Test
  void aBufferOfAnEndedContentReleasedLaterIsNotPooled() {
    ByteBuffer kept = allocator.allocate(64);
    allocator.contentEnded();
    allocator.release(kept);
    allocator.contentEnded();

    assertThat(allocator.pooledBytes()).isZero();
  }

  @Test
  void thePoolKeepsAtMostTheRetainedLimit() {
    int size = 1 << 20;
    int buffers = (int) (RecyclingHeapAllocator.RETAINED_LIMIT / size) + 3;
    ByteBuffer[] lent = new ByteBuffer[buffers];
    for (int i = 0; i < buffers; i++) {
      lent[i] = allocator.allocate(size);
    }
    Arrays.stream(lent).forEach(allocator::release);

    assertThat(allocator.pooledBytes()).isEqualTo(RecyclingHeapAllocator.RETAINED_LIMIT);
  }
}
