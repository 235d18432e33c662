package dev.mortar.writer.write;

import dev.mortar.buffer.BucketBuffer;
import dev.mortar.buffer.Deduplication;
import dev.mortar.buffer.PagePool;
import dev.mortar.writer.table.BucketIndex;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;
import org.apache.flink.table.data.binary.BinaryStringData;

/**
 * The buckets a write task has seen, each with its de-duplicating {@link BucketBuffer} in the
 * task's one {@link PagePool}. Looked up by the shuffle row's partition bytes without decoding
 * them, through the last row's partition first; a slot is created on first use (for a table without
 * partitions, in the task's {@code open()}: {@link #openSlots}) and kept for the life of the task.
 *
 * <p>Only the task thread calls this class. A buffer it seals is read by the flush thread, so
 * sealing takes the buffer's reserved index pages first ({@link BucketBuffer#prepareForReading}):
 * the flush thread's cursor then never touches the pool.
 */
final class BucketBuffers implements AutoCloseable {
  private final PagePool pool;
  private final String tableName;
  private final int buckets;
  private final Deduplication deduplication;
  private final Map<BinaryStringData, PartitionSlots> slotsByPartition = new HashMap<>();
  private final Map<BucketBuffer, BucketSlot> slotsByBuffer = new IdentityHashMap<>();

  /** The partition of the last row; the empty one (a table without partitions) before the first. */
  private PartitionSlots lastPartition;

  /** A partition's slots by bucket, with the partition path they were made for. */
  private record PartitionSlots(BinaryStringData path, BucketSlot[] byBucket) {}

  BucketBuffers(PagePool pool, String tableName, int buckets, Deduplication deduplication) {
    this.pool = pool;
    this.tableName = tableName;
    this.buckets = buckets;
    this.deduplication = deduplication;
    this.lastPartition = partitionSlots(BinaryStringData.EMPTY_UTF8);
  }

  /** The slot of a row's (partition, bucket), made when its first row comes. */
  BucketSlot slot(BinaryStringData partitionPath, int bucket) {
    if (!partitionPath.equals(lastPartition.path())) {
      lastPartition = partitionSlots(partitionPath);
    }
    BucketSlot slot = lastPartition.byBucket()[bucket];
    return slot != null ? slot : newSlot(lastPartition, bucket);
  }

  /**
   * Makes the slots of the given buckets of a table without partitions before the task's first row,
   * so that a job's first rows take the branches later rows take (rfc/0005, "Per-job
   * deoptimization").
   */
  void openSlots(IntStream buckets) {
    PartitionSlots noPartition = partitionSlots(BinaryStringData.EMPTY_UTF8);
    buckets.forEach(bucket -> newSlot(noPartition, bucket));
  }

  private PartitionSlots partitionSlots(BinaryStringData partitionPath) {
    PartitionSlots slots = slotsByPartition.get(partitionPath);
    if (slots == null) {
      BinaryStringData path = partitionPath.copy();
      slots = new PartitionSlots(path, new BucketSlot[buckets]);
      slotsByPartition.put(path, slots);
    }
    return slots;
  }

  private BucketSlot newSlot(PartitionSlots partition, int bucket) {
    String path = partition.path().toString();
    BucketBuffer buffer = pool.newBuffer(path + "#" + bucket, deduplication);
    BucketSlot slot =
        new BucketSlot(path, bucket, BucketIndex.fileId(tableName, path, bucket), buffer);
    partition.byBucket()[bucket] = slot;
    slotsByBuffer.put(buffer, slot);
    return slot;
  }

  /**
   * The slot whose buffer holds the most pages, other than {@code self}, if any holds records.
   * Buffers sealed for flushing are in the pool too, but in no slot.
   */
  Optional<BucketSlot> largestExcept(BucketSlot self) {
    return pool.largestBuffer(
            buffer ->
                buffer != self.buffer()
                    && slotsByBuffer.containsKey(buffer)
                    && buffer.recordCount() > 0)
        .map(slotsByBuffer::get);
  }

  /**
   * Takes the slot's buffer away for flushing and gives the slot an empty one from the same pool.
   * The sealed buffer keeps its pages until its owner releases it.
   */
  BucketBuffer seal(BucketSlot slot) {
    BucketBuffer sealed = slot.buffer();
    sealed.prepareForReading();
    slotsByBuffer.remove(sealed);
    BucketBuffer fresh = pool.newBuffer(sealed.ownerName(), deduplication);
    slot.replaceBuffer(fresh);
    slotsByBuffer.put(fresh, slot);
    return sealed;
  }

  /** Every slot that holds records. */
  List<BucketSlot> nonEmpty() {
    List<BucketSlot> result = new ArrayList<>();
    for (BucketSlot slot : slotsByBuffer.values()) {
      if (slot.buffer().recordCount() > 0) {
        result.add(slot);
      }
    }
    return result;
  }

  long bytesInUse() {
    return (long) pool.pagesInUse() * pool.pageSize();
  }

  long budgetBytes() {
    return pool.budgetBytes();
  }

  @Override
  public void close() {
    for (BucketBuffer buffer : slotsByBuffer.keySet()) {
      buffer.release();
    }
    slotsByBuffer.clear();
    slotsByPartition.clear();
    pool.close();
  }
}
