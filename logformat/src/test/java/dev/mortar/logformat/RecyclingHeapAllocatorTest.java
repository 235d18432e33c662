package dev.mortar.logformat;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mortar.testing.Seeds;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
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

  /**
   * Threads that allocate, fill, check and release buffers of one allocator at once (as parquet-mr
   * writers on two threads may) never find their bytes changed by another: no array is lent twice.
   */
  @Test
  void threadsSharingTheAllocatorNeverHoldTheSameArray() throws Exception {
    long seed = Seeds.seed("threadsSharingTheAllocatorNeverHoldTheSameArray");
    ExecutorService threads = Executors.newFixedThreadPool(4);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        byte mark = (byte) (t + 1);
        SplittableRandom random = new SplittableRandom(seed + t);
        done.add(threads.submit(() -> holdAndCheck(mark, random)));
      }
      for (Future<?> thread : done) {
        thread.get();
      }
    } finally {
      threads.shutdownNow();
    }
  }

  private void holdAndCheck(byte mark, SplittableRandom random) {
    List<ByteBuffer> held = new ArrayList<>();
    for (int step = 0; step < 20_000; step++) {
      if (held.isEmpty() || (held.size() < 8 && random.nextBoolean())) {
        ByteBuffer buffer = allocator.allocate(1 + random.nextInt(300));
        Arrays.fill(buffer.array(), 0, buffer.capacity(), mark);
        held.add(buffer);
      } else {
        ByteBuffer buffer = held.remove(random.nextInt(held.size()));
        for (int i = 0; i < buffer.capacity(); i++) {
          assertThat(buffer.get(i))
              .as("a byte of a buffer held by thread %d", mark)
              .isEqualTo(mark);
        }
        allocator.release(buffer);
        if (random.nextInt(10) == 0) {
          allocator.release(buffer);
        }
      }
    }
  }
}
