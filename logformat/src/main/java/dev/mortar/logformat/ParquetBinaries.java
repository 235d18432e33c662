package dev.mortar.logformat;

import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.parquet.io.api.Binary;

/**
 * Parquet {@link Binary} views of Flink strings. A binary string that lies in one on-heap segment
 * is wrapped in place as a <em>reused</em> binary: Parquet's writers then copy it only where they
 * keep it (dictionary entries, statistics), since the row it lies in is reused after the write.
 */
final class ParquetBinaries {
  private ParquetBinaries() {}

  static Binary of(StringData value) {
    if (value instanceof BinaryStringData binary) {
      MemorySegment[] segments = binary.getSegments();
      if (segments != null
          && segments.length == 1
          && !segments[0].isOffHeap()
          && binary.getOffset() + binary.getSizeInBytes() <= segments[0].size()) {
        return Binary.fromReusedByteArray(
            segments[0].getArray(), binary.getOffset(), binary.getSizeInBytes());
      }
    }
    return Binary.fromConstantByteArray(value.toBytes());
  }
}
