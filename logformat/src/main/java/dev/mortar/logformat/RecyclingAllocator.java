package dev.mortar.logformat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayDeque;
import java.util.IdentityHashMap;
import org.apache.parquet.bytes.ByteBufferAllocator;

/**
 * A heap {@link ByteBufferAllocator} that lends again the buffers given back to it. parquet-mr's
 * column writers take their slabs from the allocator of their {@code ParquetProperties} and release
 * them at every page they write; with this allocator, the slabs of a page are those of earlier
 * pages and earlier contents, so a writer that has seen one content allocates no more slabs.
 *
 * <p>Buffers have power-of-two capacities: a request for n bytes gets a buffer of the next power of
 * two with its limit at n (parquet-mr's {@code CapacityByteArrayOutputStream} fills a slab up to
 * its limit). Only a buffer lent and not given back since returns to the free list, so a buffer
 * released twice is never lent twice. parquet-mr drops some slabs without releasing them (those of
 * a dictionary page); {@link #forgetLent()}, once a content is done, lets the garbage collector
 * have them. The free lists keep what one content needed at most at a time, about a page buffer per
 * column, up to a limit in bytes: a buffer given back beyond it is left to the garbage collector,
 * so a wide schema's writer keeps a bounded amount of heap between contents. Not thread-safe: one
 * content at a time.
 */
final class RecyclingAllocator implements ByteBufferAllocator {
  /** Requests above this many bytes get a buffer of their size, never kept. */
  private static final int LARGEST_KEPT = 1 << 30;

  @SuppressWarnings("unchecked")
  private final ArrayDeque<ByteBuffer>[] free = new ArrayDeque[31];

  private final IdentityHashMap<ByteBuffer, Boolean> lent = new IdentityHashMap<>();

  private final long keptBytesLimit;
  private long keptBytes;

  /**
   * @param keptBytesLimit the most bytes of buffers the free lists hold
   */
  RecyclingAllocator(long keptBytesLimit) {
    this.keptBytesLimit = keptBytesLimit;
  }

  @Override
  public ByteBuffer allocate(int size) {
    if (size > LARGEST_KEPT) {
      return ByteBuffer.allocate(size);
    }
    int sizeClass = sizeClass(size);
    ArrayDeque<ByteBuffer> buffers = free[sizeClass];
    ByteBuffer buffer;
    if (buffers == null || buffers.isEmpty()) {
      buffer = ByteBuffer.allocate(1 << sizeClass);
    } else {
      buffer = buffers.pop();
      keptBytes -= buffer.capacity();
    }
    buffer.clear().limit(size);
    buffer.order(ByteOrder.BIG_ENDIAN);
    lent.put(buffer, Boolean.TRUE);
    return buffer;
  }

  @Override
  public void release(ByteBuffer buffer) {
    if (lent.remove(buffer) == null || keptBytes + buffer.capacity() > keptBytesLimit) {
      return;
    }
    keptBytes += buffer.capacity();
    int sizeClass = sizeClass(buffer.capacity());
    if (free[sizeClass] == null) {
      free[sizeClass] = new ArrayDeque<>();
    }
    free[sizeClass].push(buffer);
  }

  /** Forgets the buffers still lent: they will not come back (the content they served is done). */
  void forgetLent() {
    lent.clear();
  }

  /** Bytes of the buffers in the free lists. */
  long keptBytes() {
    return keptBytes;
  }

  @Override
  public boolean isDirect() {
    return false;
  }

  /** The exponent of the smallest power of two of at least {@code size} bytes. */
  private static int sizeClass(int size) {
    return size <= 1 ? 0 : 32 - Integer.numberOfLeadingZeros(size - 1);
  }
}
