package dev.mortar.logformat;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;
import org.apache.parquet.bytes.ByteBufferAllocator;

/**
 * The heap buffers parquet-mr's writers allocate (value and page slabs, compressed pages), lent
 * again once released instead of becoming garbage.
 *
 * <p>A buffer is a slice of exactly the size asked for over a pooled array whose length is the next
 * power of two, zeroed up to that size as a new array would be. Only the buffer object lent is
 * taken back, once: a second release, or the release of a slice or duplicate of it, is ignored, so
 * no array is lent to two holders. A released buffer may be lent again at the next allocation:
 * parquet-mr 1.14 uses no buffer after releasing it ({@code ParquetWriterResourcesTest} overwrites
 * every array taken back, to catch a version that does). Buffers still lent when a content ends are
 * forgotten, left to the garbage collector; arrays past {@link #RETAINED_LIMIT} bytes in the pool
 * are dropped too.
 *
 * <p>Thread-safe, though it is made for one thread's writers: parquet-mr creates every writer's
 * value writers through one static factory holding the properties of the writer built last, so a
 * writer built at the same time on another thread may allocate here.
 */
class RecyclingHeapAllocator implements ByteBufferAllocator {
  /** At most this many bytes of arrays wait in the pool. */
  static final long RETAINED_LIMIT = 16L << 20;

  private static final int SMALLEST_ARRAY = 64;

  private final Map<Integer, ArrayDeque<byte[]>> pooledByLength = new HashMap<>();
  private final Set<ByteBuffer> lent = Collections.newSetFromMap(new IdentityHashMap<>());
  private long pooledBytes;

  @Override
  public synchronized ByteBuffer allocate(int size) {
    int length = arrayLength(size);
    ArrayDeque<byte[]> pooled = pooledByLength.get(length);
    byte[] array;
    if (pooled == null || pooled.isEmpty()) {
      array = new byte[length];
    } else {
      array = pooled.pop();
      pooledBytes -= length;
      Arrays.fill(array, 0, size, (byte) 0);
    }
    ByteBuffer buffer = ByteBuffer.wrap(array, 0, size).slice();
    lent.add(buffer);
    return buffer;
  }

  @Override
  public synchronized void release(ByteBuffer buffer) {
    if (lent.remove(buffer)) {
      recycle(buffer.array());
    }
  }

  /**
   * Puts the array of a buffer taken back into the pool, unless the pool is full; holds the lock.
   */
  void recycle(byte[] array) {
    if (pooledBytes + array.length <= RETAINED_LIMIT) {
      pooledByLength.computeIfAbsent(array.length, length -> new ArrayDeque<>()).push(array);
      pooledBytes += array.length;
    }
  }

  @Override
  public boolean isDirect() {
    return false;
  }

  /** A content ended (its writer closed): buffers still lent are forgotten. */
  synchronized void contentEnded() {
    lent.clear();
  }

  /** Bytes of arrays waiting in the pool. */
  synchronized long pooledBytes() {
    return pooledBytes;
  }

  private static int arrayLength(int size) {
    if (size > 1 << 30) {
      return size;
    }
    return Math.max(SMALLEST_ARRAY, Integer.highestOneBit(size - 1) << 1);
  }
}
