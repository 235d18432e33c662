package dev.mortar.logformat.read;

import java.io.EOFException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.core.memory.MemorySegmentFactory;
import org.apache.flink.table.data.binary.BinaryStringData;

/**
 * Reads Avro's binary encoding from a range of a byte array: zig-zag varints for int and long,
 * little-endian IEEE 754 for float and double, a varint length before the bytes of a string or
 * bytes value, and arrays and maps as blocks ({@code count, items}, ending with count 0; a negative
 * count {@code -n} is followed by the block's size in bytes, then n items). Every read checks the
 * range: a datum cut short fails with an {@link EOFException} naming the position, never with an
 * index error.
 */
final class AvroInput {
  private byte[] bytes = new byte[0];
  private MemorySegment[] segments = {MemorySegmentFactory.wrap(bytes)};
  private int position;
  private int limit;

  /** Reads {@code [offset, offset + length)} of {@code source} next. */
  void reset(byte[] source, int offset, int length) {
    if (source != bytes) {
      bytes = source;
      segments = new MemorySegment[] {MemorySegmentFactory.wrap(source)};
    }
    position = offset;
    limit = offset + length;
  }

  int position() {
    return position;
  }

  void seek(int newPosition) {
    position = newPosition;
  }

  int remaining() {
    return limit - position;
  }

  long readLong() throws IOException {
    long raw = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      require(1);
      int b = bytes[position++];
      raw |= (long) (b & 0x7F) << shift;
      if (b >= 0) {
        return (raw >>> 1) ^ -(raw & 1);
      }
    }
    throw new IOException("varint longer than 10 bytes ending at byte " + position);
  }

  int readInt() throws IOException {
    long value = readLong();
    if (value != (int) value) {
      throw new IOException("Avro int " + value + " out of range before byte " + position);
    }
    return (int) value;
  }

  boolean readBoolean() throws IOException {
    require(1);
    return bytes[position++] != 0;
  }

  float readFloat() throws IOException {
    return Float.intBitsToFloat((int) readLittleEndian(4));
  }

  double readDouble() throws IOException {
    return Double.longBitsToDouble(readLittleEndian(8));
  }

  /** The union branch before a value: 0 or 1 in Mortar's {@code ["null", T]} unions. */
  int readUnionBranch(String what) throws IOException {
    int at = position;
    long branch = readLong();
    if (branch != 0 && branch != 1) {
      throw new IOException(
          what + ": union branch " + branch + " at byte " + at + ", expected 0 (null) or 1");
    }
    return (int) branch;
  }

  /** The length of a string or bytes value; the bytes are then at {@link #position()}. */
  int readLength() throws IOException {
    int at = position;
    long length = readLong();
    if (length < 0 || length > remaining()) {
      throw new EOFException(
          "length " + length + " at byte " + at + ", but " + remaining() + " bytes follow");
    }
    return (int) length;
  }

  /**
   * A string or bytes value as a view of the input bytes (no copy): valid while they are unchanged.
   */
  BinaryStringData readStringView() throws IOException {
    int length = readLength();
    position += length;
    return BinaryStringData.fromAddress(segments, position - length, length);
  }

  String readString() throws IOException {
    int length = readLength();
    position += length;
    return new String(bytes, position - length, length, StandardCharsets.UTF_8);
  }

  byte[] readBytes() throws IOException {
    int length = readLength();
    position += length;
    return Arrays.copyOfRange(bytes, position - length, position);
  }

  /** Big-endian two's complement bytes as a long (compact decimals: at most 8 bytes). */
  long readUnscaledLong() throws IOException {
    int at = position;
    int length = readLength();
    if (length == 0 || length > 8) {
      throw new IOException("decimal of " + length + " bytes at byte " + at + ", expected 1 to 8");
    }
    long value = bytes[position++]; // sign-extended
    for (int i = 1; i < length; i++) {
      value = (value << 8) | (bytes[position++] & 0xFF);
    }
    return value;
  }

  /**
   * The item count of the next array or map block, 0 at the end. A negative count's block size is
   * read and dropped. Each item takes at least one byte (every type Mortar writes does), so a count
   * beyond the remaining bytes is corrupt.
   */
  int readBlockCount() throws IOException {
    int at = position;
    long count = readLong();
    if (count < 0) {
      count = -count;
      readLong();
    }
    if (count < 0 || count > remaining()) {
      throw new EOFException(
          "block of " + count + " items at byte " + at + ", but " + remaining() + " bytes follow");
    }
    return (int) count;
  }

  /**
   * Skips a whole array or map whose items {@code skipItem} skips; a block with a byte size is
   * jumped over. Returns the number of items.
   */
  int skipBlocks(Skipper skipItem) throws IOException {
    int items = 0;
    while (true) {
      int at = position;
      long count = readLong();
      if (count == 0) {
        return items;
      }
      if (count < 0) {
        long size = readLong();
        if (size < -count || -count < 0) {
          throw new IOException(
              "block of " + -count + " items in " + size + " bytes at byte " + at);
        }
        skip(size);
        items = Math.addExact(items, (int) -count);
      } else {
        if (count > remaining()) {
          throw new EOFException(
              "block of " + count + " items at byte " + at + ", " + remaining() + " bytes follow");
        }
        for (long i = 0; i < count; i++) {
          skipItem.skip(this);
        }
        items = Math.addExact(items, (int) count);
      }
    }
  }

  void skip(long length) throws IOException {
    if (length > remaining()) {
      throw new EOFException(
          "cannot skip " + length + " bytes at byte " + position + ", " + remaining() + " follow");
    }
    position += (int) length;
  }

  void skipString() throws IOException {
    int length = readLength(); // before position is read: readLength moves it
    position += length;
  }

  private long readLittleEndian(int width) throws IOException {
    require(width);
    long value = 0;
    for (int i = 0; i < width; i++) {
      value |= (bytes[position++] & 0xFFL) << (i * 8);
    }
    return value;
  }

  private void require(int length) throws EOFException {
    if (limit - position < length) {
      throw new EOFException(
          "datum ends at byte " + limit + ", " + length + " more bytes needed at " + position);
    }
  }

  /** Skips one value of some type. */
  @FunctionalInterface
  interface Skipper {
    void skip(AvroInput in) throws IOException;
  }
}
