package dev.mortar.logformat;

import dev.mortar.serde.PayloadWriter;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.core.memory.MemorySegmentFactory;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinarySegmentUtils;

/**
 * The layouts a {@link BinaryRowData} reaches the log writer in: Flink's contiguous row, a row
 * without the padding after its strings (mortar-serde's {@link PayloadWriter}), and either spread
 * over small segments at any offset, as a paged buffer hands them out, on or off the heap. An
 * encoder must write the same bytes for each.
 */
final class SegmentLayouts {
  private SegmentLayouts() {}

  /**
   * Every layout of {@code values} but Flink's own row, which is {@code flinks}; each an
   * independent row (the payload writer reuses its row).
   */
  static List<BinaryRowData> otherLayouts(
      BinaryRowData flinks,
      GenericRowData values,
      PayloadWriter payloadWriter,
      SplittableRandom split) {
    BinaryRowData unpadded = payloadWriter.toBinaryRow(values).copy();
    return List.of(
        spreadOverSegments(flinks, split, false),
        unpadded,
        spreadOverSegments(unpadded, split, false),
        spreadOverSegments(unpadded, split, true));
  }

  /** A copy of {@code row} across segments of 8–64 bytes, starting at a random offset. */
  private static BinaryRowData spreadOverSegments(
      BinaryRowData row, SplittableRandom split, boolean offHeap) {
    byte[] bytes =
        BinarySegmentUtils.copyToBytes(row.getSegments(), row.getOffset(), row.getSizeInBytes());
    int segmentSize = 8 * (1 + split.nextInt(8));
    int offset = split.nextInt(segmentSize);
    int count = (offset + bytes.length + segmentSize - 1) / segmentSize;
    MemorySegment[] segments = new MemorySegment[Math.max(1, count)];
    for (int i = 0; i < segments.length; i++) {
      segments[i] =
          offHeap
              ? MemorySegmentFactory.allocateUnpooledOffHeapMemory(segmentSize)
              : MemorySegmentFactory.wrap(new byte[segmentSize]);
    }
    BinarySegmentUtils.copyFromBytes(segments, offset, bytes, 0, bytes.length);
    BinaryRowData paged = new BinaryRowData(row.getArity());
    paged.pointTo(segments, offset, bytes.length);
    return paged;
  }
}
