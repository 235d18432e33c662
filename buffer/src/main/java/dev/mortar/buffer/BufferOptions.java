package dev.mortar.buffer;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.ReadableConfig;

/** The options of the write buffer, read where a write task builds its {@link PagePool}. */
public final class BufferOptions {
  public static final ConfigOption<MemorySize> MEMORY =
      ConfigOptions.key("buffer.memory")
          .memoryType()
          .defaultValue(MemorySize.ofMebiBytes(256))
          .withDescription(
              "Page memory of one write task for the records between two flushes, over all its"
                  + " buckets. When it is full, the largest other bucket is flushed.");

  public static final ConfigOption<MemorySize> PAGE_SIZE =
      ConfigOptions.key("buffer.page-size")
          .memoryType()
          .defaultValue(MemorySize.parse("64kb"))
          .withDescription(
              "Size of one buffer page, a power of two of at least 64 bytes. Records may span"
                  + " pages; a record inside one page is read without a copy.");

  public static final ConfigOption<Boolean> OFF_HEAP =
      ConfigOptions.key("buffer.off-heap")
          .booleanType()
          .defaultValue(false)
          .withDescription(
              "Allocate buffer pages outside the Java heap, in memory Flink's TaskManager budget"
                  + " does not count (plan it in 'taskmanager.memory.task.off-heap.size');"
                  + " 'buffer.managed-memory' puts them off the heap inside Flink's managed memory"
                  + " instead.");

  public static final ConfigOption<Boolean> MANAGED_MEMORY =
      ConfigOptions.key("buffer.managed-memory")
          .booleanType()
          .defaultValue(false)
          .withDescription(
              "Take each write task's pages from Flink's managed memory, off the heap and counted"
                  + " by Flink: the task gets the share of its slot's managed memory that Flink"
                  + " computes from the weight 'buffer.memory' (in MiB) against the slot's other"
                  + " managed memory consumers (for example RocksDB), in place of 'buffer.memory'"
                  + " itself. The slot's managed memory is set by"
                  + " 'taskmanager.memory.managed.size' or 'taskmanager.memory.managed.fraction'.");

  public static final ConfigOption<Deduplication> DEDUPLICATION =
      ConfigOptions.key("buffer.deduplication")
          .enumType(Deduplication.class)
          .defaultValue(Deduplication.ON_READ)
          .withDescription(
              "When a bucket's buffer finds the latest record per key: 'on_read' when it is"
                  + " flushed, on the task's flush thread, so the task's own thread only copies"
                  + " rows in; 'on_append' as each row arrives, so a newer record of a key"
                  + " replaces the older one at once and a stream that updates a few hot keys"
                  + " fills the buffer (and flushes) less often.");

  /**
   * The system property that makes every pool built here strict ({@link PagePool}: owner checks on
   * every release, released pages freed, counted in the {@link StrictPoolLedger}); the writer's
   * tests set it to {@code true}.
   */
  public static final String STRICT_PROPERTY = "mortar.buffer.strict";

  private BufferOptions() {}

  /** The page pool of one write task as {@code config} sets it. */
  public static PagePool newPagePool(ReadableConfig config) {
    return newPagePool(
        config.get(PAGE_SIZE).getBytes(), config.get(MEMORY).getBytes(), config.get(OFF_HEAP));
  }

  /**
   * The page pool of one write task from the values of {@link #PAGE_SIZE}, {@link #MEMORY} and
   * {@link #OFF_HEAP}, strict under {@link #STRICT_PROPERTY}; a bad value fails naming its option.
   */
  public static PagePool newPagePool(long pageSizeBytes, long memoryBytes, boolean offHeap) {
    if (pageSizeBytes > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(
          "'" + PAGE_SIZE.key() + "' must be below 2 GiB, got " + pageSizeBytes + " bytes");
    }
    int pageSize = (int) pageSizeBytes;
    if (Boolean.getBoolean(STRICT_PROPERTY)) {
      return offHeap
          ? PagePool.strictOffHeap(pageSize, memoryBytes)
          : PagePool.strictOnHeap(pageSize, memoryBytes);
    }
    return offHeap
        ? PagePool.offHeap(pageSize, memoryBytes)
        : PagePool.onHeap(pageSize, memoryBytes);
  }
}
