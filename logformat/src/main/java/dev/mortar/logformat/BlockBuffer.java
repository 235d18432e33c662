package dev.mortar.logformat;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;
import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.table.data.binary.BinarySegmentUtils;

/**
 * A growable, reusable byte array that log blocks are encoded into. It never shrinks: after the
 * first blocks of a writer it has reached its working size and encoding allocates nothing.
 *
 * <p>Two encodings meet here: the block framing is big-endian fixed width ({@code
 * java.io.DataOutputStream}, what Hudi's reader expects), the Avro datums are zig-zag varints and
 * little-endian floats (Avro's binary encoding). Method names say which one they write.
 */
public final class BlockBuffer {
  private byte[] bytes;
  private int size;

  public BlockBuffer(int initialCapacity) {
    this.bytes = new byte[Math.max(16, initialCapacity)];
  }

  /** Number of bytes written since the last {@link #reset()}. */
  public int size() {
    return size;
  }

  /** The backing array; valid bytes are {@code [0, size())}. */
  public byte[] array() {
    return bytes;
  }

  public void reset() {
    size = 0;
  }

  /** Writes the content to {@code out} straight from the backing array (no copy). */
  public void writeTo(OutputStream out) throws IOException {
    out.write(bytes, 0, size);
  }

  /** Reserves {@code length} bytes to be filled later with {@code put*}; returns their position. */
  public int reserve(int length) {
    ensure(length);
    int position = size;
    size += length;
    return position;
  }

  public void writeByte(int value) {
    ensure(1);
    bytes[size++] = (byte) value;
  }

  public void writeBytes(byte[] source, int offset, int length) {
    ensure(length);
    System.arraycopy(source, offset, bytes, size, length);
    size += length;
  }

  /** Copies {@code length} bytes of memory segments starting at {@code offset}. */
  public void writeSegments(MemorySegment[] segments, int offset, int length) {
    ensure(length);
    if (segments.length == 1) {
      segments[0].get(offset, bytes, size, length);
    } else {
      BinarySegmentUtils.copyToBytes(segments, offset, bytes, size, length);
    }
    size += length;
  }

  // ---- big-endian fixed width (block framing) ----

  public void writeIntBigEndian(int value) {
    ensure(4);
    putIntBigEndian(size, value);
    size += 4;
  }

  public void writeLongBigEndian(long value) {
    ensure(8);
    for (int i = 7; i >= 0; i--) {
      bytes[size++] = (byte) (value >>> (i * 8));
    }
  }

  public void putIntBigEndian(int position, int value) {
    bytes[position] = (byte) (value >>> 24);
    bytes[position + 1] = (byte) (value >>> 16);
    bytes[position + 2] = (byte) (value >>> 8);
    bytes[position + 3] = (byte) value;
  }

  // ---- Avro binary encoding ----

  /** Avro {@code int}/{@code long}: zig-zag, then base-128 varint (1 to 10 bytes). */
  public void writeAvroLong(long value) {
    ensure(10);
    long n = (value << 1) ^ (value >> 63);
    while ((n & ~0x7FL) != 0) {
      bytes[size++] = (byte) ((n & 0x7F) | 0x80);
      n >>>= 7;
    }
    bytes[size++] = (byte) n;
  }

  /** Avro {@code float}: IEEE 754 bits, little-endian. */
  public void writeAvroFloat(float value) {
    writeLittleEndian(Float.floatToRawIntBits(value), 4);
  }

  /** Avro {@code double}: IEEE 754 bits, little-endian. */
  public void writeAvroDouble(double value) {
    writeLittleEndian(Double.doubleToRawLongBits(value), 8);
  }

  /** Avro {@code string}/{@code bytes}: varint length, then the bytes. */
  public void writeAvroBytes(byte[] source) {
    writeAvroLong(source.length);
    writeBytes(source, 0, source.length);
  }

  /** Avro {@code string}/{@code bytes} whose bytes live in memory segments. */
  public void writeAvroBytes(MemorySegment[] segments, int offset, int length) {
    writeAvroLong(length);
    writeSegments(segments, offset, length);
  }

  /** The decimal digits of a non-negative {@code value}, as ASCII (for sequence numbers). */
  public void writeAsciiDigits(long value) {
    int digits = 1;
    for (long rest = value / 10; rest > 0; rest /= 10) {
      digits++;
    }
    ensure(digits);
    for (int i = size + digits - 1; i >= size; i--) {
      bytes[i] = (byte) ('0' + (value % 10));
      value /= 10;
    }
    size += digits;
  }

  private void writeLittleEndian(long value, int width) {
    ensure(width);
    for (int i = 0; i < width; i++) {
      bytes[size++] = (byte) (value >>> (i * 8));
    }
  }

  private void ensure(int extra) {
    long needed = (long) size + extra;
    if (needed > bytes.length) {
      if (needed > Integer.MAX_VALUE - 8) {
        throw new IllegalStateException(
            "a log block must stay below 2 GiB (Hudi's reader reads its length as an int): "
                + size
                + " bytes buffered, "
                + extra
                + " more requested; lower maxBlockSizeBytes");
      }
      bytes =
          Arrays.copyOf(
              bytes, (int) Math.min(Integer.MAX_VALUE - 8, Math.max(needed, 2L * bytes.length)));
    }
  }
}
