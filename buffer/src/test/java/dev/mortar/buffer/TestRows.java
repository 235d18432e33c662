package dev.mortar.buffer;

import java.util.Arrays;
import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.core.memory.MemorySegmentFactory;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinarySegmentUtils;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.data.writer.BinaryRowWriter;

/** Rows and keys of exact byte sizes for the buffer tests. */
final class TestRows {
  private TestRows() {}

  /**
   * A row of exactly {@code sizeInBytes} (a multiple of 8, at least 8): arity 0 for 8 bytes, else
   * one BINARY field filled with {@code fill}.
   */
  static BinaryRowData rowOfSize(int sizeInBytes, byte fill) {
    if (sizeInBytes == 8) {
      BinaryRowData row = new BinaryRowData(0);
      new BinaryRowWriter(row).complete();
      return row;
    }
    if (sizeInBytes < 16 || sizeInBytes % 8 != 0) {
      throw new IllegalArgumentException(
          "row size must be 8 or a multiple of 8 >= 16: " + sizeInBytes);
    }
    int binaryLength = sizeInBytes == 16 ? 0 : sizeInBytes - 16;
    byte[] value = new byte[binaryLength];
    Arrays.fill(value, fill);
    BinaryRowData row = new BinaryRowData(1);
    BinaryRowWriter writer = new BinaryRowWriter(row, binaryLength);
    writer.writeBinary(0, value);
    writer.complete();
    if (row.getSizeInBytes() != sizeInBytes) {
      throw new AssertionError("built " + row.getSizeInBytes() + " bytes, wanted " + sizeInBytes);
    }
    return row;
  }

  /** A row of 0 bytes: arity 0 and not even a null bit set (a degenerate but legal section). */
  static BinaryRowData emptyRow() {
    BinaryRowData row = new BinaryRowData(0);
    row.pointTo(MemorySegmentFactory.wrap(new byte[0]), 0, 0);
    return row;
  }

  /** A row with {@code arity} BINARY fields of the given lengths and random-looking content. */
  static BinaryRowData rowWithFields(int[] fieldLengths, long seed) {
    BinaryRowData row = new BinaryRowData(fieldLengths.length);
    BinaryRowWriter writer = new BinaryRowWriter(row);
    java.util.SplittableRandom random = new java.util.SplittableRandom(seed);
    for (int i = 0; i < fieldLengths.length; i++) {
      byte[] value = new byte[fieldLengths[i]];
      for (int j = 0; j < value.length; j++) {
        value[j] = (byte) random.nextInt(256);
      }
      writer.writeBinary(i, value);
    }
    writer.complete();
    return row;
  }

  /**
   * The same row bytes spread over segments of {@code segmentSize}, starting {@code offset} bytes
   * into the first one, as rows read from the network are.
   */
  static BinaryRowData spreadOverSegments(BinaryRowData row, int segmentSize, int offset) {
    byte[] bytes = bytesOf(row);
    BinaryRowData spread = new BinaryRowData(row.getArity());
    spread.pointTo(spread(bytes, segmentSize, offset), offset, bytes.length);
    return spread;
  }

  /** A key and a row that lie back to back in the same segments. */
  record KeyAndRow(BinaryStringData key, BinaryRowData row) {}

  /**
   * The key's bytes and then the row's, back to back in one array of segments of {@code
   * segmentSize} from {@code offset} on, as a shuffle row's wire record holds them.
   */
  static KeyAndRow backToBack(
      BinaryStringData key, BinaryRowData row, int segmentSize, int offset) {
    byte[] keyBytes = key.toBytes();
    byte[] rowBytes = bytesOf(row);
    byte[] both = Arrays.copyOf(keyBytes, keyBytes.length + rowBytes.length);
    System.arraycopy(rowBytes, 0, both, keyBytes.length, rowBytes.length);
    MemorySegment[] segments = spread(both, segmentSize, offset);
    BinaryRowData joinedRow = new BinaryRowData(row.getArity());
    joinedRow.pointTo(segments, offset + keyBytes.length, rowBytes.length);
    return new KeyAndRow(
        BinaryStringData.fromAddress(segments, offset, keyBytes.length), joinedRow);
  }

  private static MemorySegment[] spread(byte[] bytes, int segmentSize, int offset) {
    int total = offset + bytes.length;
    MemorySegment[] segments =
        new MemorySegment[Math.max(1, (total + segmentSize - 1) / segmentSize)];
    for (int i = 0; i < segments.length; i++) {
      segments[i] = MemorySegmentFactory.wrap(new byte[segmentSize]);
    }
    for (int i = 0; i < bytes.length; i++) {
      int position = offset + i;
      segments[position / segmentSize].put(position % segmentSize, bytes[i]);
    }
    return segments;
  }

  static byte[] bytesOf(BinaryRowData row) {
    return BinarySegmentUtils.copyToBytes(row.getSegments(), row.getOffset(), row.getSizeInBytes());
  }

  /** A key of {@code length} ASCII bytes. */
  static BinaryStringData keyOfLength(int length, char fill) {
    char[] chars = new char[length];
    Arrays.fill(chars, fill);
    return BinaryStringData.fromString(new String(chars));
  }
}
