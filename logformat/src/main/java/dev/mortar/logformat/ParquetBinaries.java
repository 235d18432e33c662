package dev.mortar.logformat;

import static org.apache.flink.table.data.binary.BinarySegmentUtils.LITTLE_ENDIAN;
import static org.apache.flink.table.data.binary.BinarySegmentUtils.getLong;

import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.table.data.binary.BinarySegmentUtils;
import org.apache.parquet.io.api.Binary;

/**
 * Parquet {@link Binary} values over bytes in Flink memory segments, for values handed to a
 * parquet-mr {@code RecordConsumer} one at a time. Bytes inside one on-heap segment are wrapped in
 * place; bytes that span segments or lie off-heap are copied into one scratch array, which the next
 * value overwrites. Either way the binary is a <em>reused</em> one: parquet-mr encodes it at once
 * and copies it only where it keeps it (dictionary entries, statistics).
 */
final class ParquetBinaries {
  private static final long INLINE_MARK = 0x80L << 56;
  private static final long INLINE_LENGTH_MASK = 0x7FL << 56;

  private byte[] scratch = new byte[64];

  /** The {@code length} bytes at {@code offset} of {@code segments}. */
  Binary of(MemorySegment[] segments, int offset, int length) {
    MemorySegment first = segments[0];
    if (segments.length == 1) {
      if (!first.isOffHeap()) {
        return Binary.fromReusedByteArray(first.getArray(), offset, length);
      }
    } else {
      int segmentSize = first.size();
      int index = offset / segmentSize;
      int inSegment = offset - index * segmentSize;
      MemorySegment segment = segments[index];
      if (inSegment + length <= segmentSize && !segment.isOffHeap()) {
        return Binary.fromReusedByteArray(segment.getArray(), inSegment, length);
      }
    }
    if (scratch.length < length) {
      scratch = new byte[Math.max(length, scratch.length * 2)];
    }
    BinarySegmentUtils.copyToBytes(segments, offset, scratch, 0, length);
    return Binary.fromReusedByteArray(scratch, 0, length);
  }

  /**
   * A string or binary whose slot is at {@code slot} of a row or array starting at {@code base}:
   * inline in the slot (at most 7 bytes, marked by the slot's highest bit, the length in the next 7
   * bits) or at {@code offset << 32 | length}, the offset relative to {@code base}.
   */
  Binary variable(MemorySegment[] segments, int base, int slot) {
    long position = variablePosition(segments, base, slot);
    return of(segments, (int) (position >>> 32), (int) position);
  }

  /**
   * Where the bytes of the string or binary of {@link #variable} lie: their offset in the segments
   * in the high 32 bits, their length in the low 32.
   */
  static long variablePosition(MemorySegment[] segments, int base, int slot) {
    long offsetAndSize = getLong(segments, slot);
    if ((offsetAndSize & INLINE_MARK) == 0) {
      return offsetAndSize + ((long) base << 32);
    }
    long length = (offsetAndSize & INLINE_LENGTH_MASK) >>> 56;
    return (long) (LITTLE_ENDIAN ? slot : slot + 1) << 32 | length;
  }

  /**
   * Bytes always kept at {@code offset << 32 | length} from {@code base}, never inline (the
   * unscaled value of a non-compact decimal).
   */
  Binary outOfLine(MemorySegment[] segments, int base, int slot) {
    long offsetAndSize = getLong(segments, slot);
    return of(segments, base + (int) (offsetAndSize >> 32), (int) offsetAndSize);
  }

  /**
   * The unscaled value of a compact decimal as minimal big-endian two's complement, the bytes of
   * {@code BigInteger.valueOf(unscaled).toByteArray()} that parquet-avro writes.
   */
  Binary compactDecimal(long unscaled) {
    int length = compactDecimalLength(unscaled);
    for (int i = 0; i < length; i++) {
      scratch[i] = (byte) (unscaled >> ((length - 1 - i) * 8));
    }
    return Binary.fromReusedByteArray(scratch, 0, length);
  }

  /** The length of {@link #compactDecimal}'s bytes for {@code unscaled}. */
  static int compactDecimalLength(long unscaled) {
    int bitLength = 64 - Long.numberOfLeadingZeros(unscaled ^ (unscaled >> 63));
    return bitLength / 8 + 1;
  }
}
