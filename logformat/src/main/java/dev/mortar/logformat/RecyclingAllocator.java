package dev.mortar.logformat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayDeque;
import java.util.IdentityHashMap;
import java.util.function.Consumer;
import org.apache.parquet.bytes.ByteBufferAllocator;

/**
 * A heap {@link ByteBufferAllocator} that lends again, in a later content, the buffers given back
 * to it. parquet-mr's column writers take their slabs from the allocator of their {@code
 * ParquetProperties} and release them at every page they write; with this allocator, the slabs of a
 * content are those of earlier contents, so a writer that has seen one content allocates few more
 * slabs.
 *
 * <p>A buffer given back is lent again only after the content ends ({@link #contentEnded()}), never
 * within the content that released it: parquet-mr may read a buffer after releasing it (a
 * dictionary page's values writer is closed, its slabs released, before the page's bytes are
 * copied), which a heap allocator that ignores releases tolerates and a recycler must too. Once the
 * content's file is ended, nothing of it is read again.
 *
 * <p>Buffers have power-of-two capacities: a request for n bytes gets a buffer of the next power of
 * two with its limit at n (parquet-mr's {@code CapacityByteArrayOutputStream} fills a slab up to
 * its limit). Only a buffer lent and not given back since is taken back, so a buffer released twice
 * is never lent twice; buffers never released are left to the garbage collector. The free lists and
 * the buffers given back in the current content hold at most a limit in bytes together: a buffer
 * given back beyond it is left to the garbage collector, so a wide schema's writer, or a base file
 * of many pages, keeps a bounded amount of heap. Not thread-safe: one content at a time.
 */
final class RecyclingAllocator implements ByteBufferAllocator {
  /** Requests above this many bytes get a buffer of their size, never kept. */
  private static final int LARGEST_KEPT = 1 << 30;

  @SuppressWarnings("unchecked")
  private final ArrayDeque<ByteBuffer>[] free = new ArrayDeque[31];

  private final IdentityHashMap<ByteBuffer, Boolean> lent = new IdentityHashMap<>();

  /** Buffers given back during the current content, lent again once it ends. */
  private final ArrayDeque<ByteBuffer> givenBack = new ArrayDeque<>();

  private long givenBackBytes;

  private final long keptBytesLimit;
  private long keptBytes;

  /** Told of each buffer as it becomes free to lend (tests overwrite it there). */
  private final Consumer<ByteBuffer> freed;

  /**
   * @param keptBytesLimit the most bytes of buffers held for lending again
   */
  RecyclingAllocator(long keptBytesLimit) {
    this(keptBytesLimit, buffer -> {});
  }

  RecyclingAllocator(long keptBytesLimit, Consumer<ByteBuffer> freed) {
    this.keptBytesLimit = keptBytesLimit;
    this.freed = freed;
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
    if (lent.remove(buffer) != null
        && keptBytes + givenBackBytes + buffer.capacity() <= keptBytesLimit) {
      givenBack.push(buffer);
      givenBackBytes += buffer.capacity();
    }
  }

  /**
   * Ends a content: the buffers it gave back become free to lend, and those it never gave back are
   * forgotten.
   */
  void contentEnded() {
    lent.clear();
    for (ByteBuffer buffer = givenBack.pollLast(); buffer != null; buffer = givenBack.pollLast()) {
      freed.accept(buffer);
      int sizeClass = sizeClass(buffer.capacity());
      if (free[sizeClass] == null) {
        free[sizeClass] = new ArrayDeque<>();
      }
      free[sizeClass].push(buffer);
    }
    keptBytes += givenBackBytes;
    givenBackBytes = 0;
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
