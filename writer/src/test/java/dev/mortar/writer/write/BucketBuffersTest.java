package dev.mortar.writer.write;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mortar.buffer.Deduplication;
import dev.mortar.buffer.PagePool;
import dev.mortar.testing.Seeds;
import dev.mortar.writer.table.BucketIndex;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.core.memory.MemorySegmentFactory;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.junit.jupiter.api.Test;

/**
 * The slots of a write task against a plain map of (partition, bucket) to slot: the task looks rows
 * up through one partition view that its batch reader points at each row's bytes in turn, so the
 * remembered last partition must be a copy, and a partition left and met again must find its slots.
 */
class BucketBuffersTest {
  private static final long SEED = Seeds.seed("BucketBuffersTest");
  private static final int BUCKETS = 8;

  @Test
  void findsTheSameSlotForEveryRowOfABucketThroughOneRepointedView() {
    SplittableRandom random = new SplittableRandom(SEED);
    String[] partitions = {"", "dt=2026-11-27", "dt=2026-11-28", "dt=2026-11-28/h=01"};
    Map<String, BucketSlot> model = new HashMap<>();
    BinaryStringData view =
        new BinaryStringData(new MemorySegment[] {MemorySegmentFactory.wrap(new byte[0])}, 0, 0);
    try (BucketBuffers buffers = newBuffers()) {
      for (int row = 0; row < 2_000; row++) {
        String partition = partitions[random.nextInt(partitions.length)];
        int bucket = random.nextInt(BUCKETS);
        pointAt(view, partition);
        BucketSlot slot = buffers.slot(view, bucket);
        assertThat(slot.partitionPath()).isEqualTo(partition);
        assertThat(slot.bucket()).isEqualTo(bucket);
        assertThat(slot.fileId()).isEqualTo(BucketIndex.fileId("t", partition, bucket));
        BucketSlot first = model.putIfAbsent(partition + "#" + bucket, slot);
        assertThat(slot)
            .as("row %s: %s#%s", row, partition, bucket)
            .isSameAs(first != null ? first : slot);
      }
      assertThat(model).hasSize(partitions.length * BUCKETS);
    }
  }

  @Test
  void openSlotsMakesTheOwnedBucketsOfATableWithoutPartitionsBeforeTheFirstRow() {
    try (BucketBuffers buffers = newBuffers()) {
      buffers.openSlots(IntStream.of(1, 5));
      assertThat(buffers.nonEmpty()).isEmpty();
      BucketSlot opened = buffers.slot(BinaryStringData.fromString(""), 5);
      assertThat(opened.bucket()).isEqualTo(5);
      assertThat(opened.partitionPath()).isEmpty();
      assertThat(buffers.slot(BinaryStringData.EMPTY_UTF8, 5)).isSameAs(opened);
      assertThat(buffers.slot(BinaryStringData.fromString("dt=1"), 5)).isNotSameAs(opened);
      assertThat(buffers.slot(BinaryStringData.fromString(""), 5)).isSameAs(opened);
    }
  }

  private static BucketBuffers newBuffers() {
    return new BucketBuffers(
        PagePool.strictOnHeap(4096, 64 * 4096), "t", BUCKETS, Deduplication.ON_READ);
  }

  /** Points the view at a fresh copy of the partition's bytes, as the batch reader re-points it. */
  private static void pointAt(BinaryStringData view, String partition) {
    byte[] bytes = partition.getBytes(StandardCharsets.UTF_8);
    view.getBinarySection()
        .pointTo(new MemorySegment[] {MemorySegmentFactory.wrap(bytes)}, 0, bytes.length);
  }
}
