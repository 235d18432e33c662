package dev.mortar.logformat;

import static org.apache.flink.table.data.binary.BinarySegmentUtils.LITTLE_ENDIAN;
import static org.apache.flink.table.data.binary.BinarySegmentUtils.bitGet;
import static org.apache.flink.table.data.binary.BinarySegmentUtils.getBoolean;
import static org.apache.flink.table.data.binary.BinarySegmentUtils.getByte;
import static org.apache.flink.table.data.binary.BinarySegmentUtils.getDouble;
import static org.apache.flink.table.data.binary.BinarySegmentUtils.getFloat;
import static org.apache.flink.table.data.binary.BinarySegmentUtils.getInt;
import static org.apache.flink.table.data.binary.BinarySegmentUtils.getLong;
import static org.apache.flink.table.data.binary.BinarySegmentUtils.getShort;

import java.util.List;
import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.binary.BinaryArrayData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;

/**
 * Encodes a {@link BinaryRowData} as the Avro binary datum of {@link AvroSchemas#of} (without meta
 * fields), reading every value straight from the row's memory segments: no {@code GenericRecord},
 * no {@code String}, no per-record array. The row type is compiled once into a tree of {@link
 * ValueEncoder}s.
 *
 * <p>Where Flink keeps a value (see {@code BinaryRowData}, {@code BinaryArrayData}, {@code
 * BinaryMapData}): each field has an 8-byte slot after the null bit set (array elements a slot of
 * {@link BinaryArrayData#calculateFixLengthPartSize} bytes after the element count and null bits).
 * Fixed-width values sit in the slot. Variable-length values keep {@code offset << 32 | length} in
 * the slot, the offset relative to the start of the enclosing row or array; strings and binaries of
 * at most 7 bytes are inlined in the slot instead, marked by the slot's highest bit with the length
 * in the next 7 bits. Non-compact decimals (precision &gt; 18) hold {@code
 * BigInteger.toByteArray()} bytes; non-compact timestamps (precision &gt; 3) hold {@code offset <<
 * 32 | nanoOfMillisecond} with the epoch millis at the offset.
 */
public final class BinaryRowAvroEncoder {
  private static final long INLINE_MARK = 0x80L << 56;
  private static final long INLINE_LENGTH_MASK = 0x7FL << 56;

  /** Writes the Avro encoding of the non-null value whose slot is at {@code slot}. */
  @FunctionalInterface
  interface ValueEncoder {
    void encode(MemorySegment[] segments, int base, int slot, BlockBuffer out);
  }

  /** A long in the slot (BIGINT, compact timestamps); {@link RowEncoder} encodes it inline. */
  private static final ValueEncoder LONG_IN_SLOT =
      (segs, base, slot, out) -> out.writeAvroLong(getLong(segs, slot));

  /** An int in the slot (INT, DATE, TIME); {@link RowEncoder} encodes it inline. */
  private static final ValueEncoder INT_IN_SLOT =
      (segs, base, slot, out) -> out.writeAvroLong(getInt(segs, slot));

  /** A string or binary; {@link RowEncoder} encodes it inline. */
  private static final ValueEncoder VARIABLE_BYTES = BinaryRowAvroEncoder::encodeVariableBytes;

  private final RowEncoder root;

  public BinaryRowAvroEncoder(RowType rowType) {
    this.root = new RowEncoder(rowType, "");
  }

  /** Appends the datum of {@code row} to {@code out}. */
  public void encode(BinaryRowData row, BlockBuffer out) {
    if (row.getArity() != root.arity) {
      throw new IllegalArgumentException(
          "row has " + row.getArity() + " fields, the row type " + root.arity);
    }
    root.encodeFields(row.getSegments(), row.getOffset(), out);
  }

  private static ValueEncoder encoderFor(LogicalType type, String path) {
    switch (type.getTypeRoot()) {
      case BOOLEAN:
        return (segs, base, slot, out) -> out.writeByte(getBoolean(segs, slot) ? 1 : 0);
      case TINYINT:
        return (segs, base, slot, out) -> out.writeAvroLong(getByte(segs, slot));
      case SMALLINT:
        return (segs, base, slot, out) -> out.writeAvroLong(getShort(segs, slot));
      case INTEGER:
      case DATE:
      case TIME_WITHOUT_TIME_ZONE:
        return INT_IN_SLOT;
      case BIGINT:
        return LONG_IN_SLOT;
      case FLOAT:
        return (segs, base, slot, out) -> out.writeAvroFloat(getFloat(segs, slot));
      case DOUBLE:
        return (segs, base, slot, out) -> out.writeAvroDouble(getDouble(segs, slot));
      case CHAR:
      case VARCHAR:
      case BINARY:
      case VARBINARY:
        return VARIABLE_BYTES;
      case DECIMAL:
        return DecimalData.isCompact(((DecimalType) type).getPrecision())
            ? (segs, base, slot, out) -> encodeCompactDecimal(getLong(segs, slot), out)
            : BinaryRowAvroEncoder::encodeOutOfLineBytes;
      case TIMESTAMP_WITHOUT_TIME_ZONE:
        return timestampEncoder(((TimestampType) type).getPrecision());
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
        return timestampEncoder(((LocalZonedTimestampType) type).getPrecision());
      case ARRAY:
        return new ArrayEncoder(((ArrayType) type).getElementType(), path);
      case MAP:
        return new MapEncoder((MapType) type, path);
      case ROW:
        return new RowEncoder((RowType) type, path);
      default:
        throw new IllegalArgumentException(
            "field " + path + " of type " + type.asSummaryString() + " has no Avro encoding");
    }
  }

  private static ValueEncoder timestampEncoder(int precision) {
    if (TimestampData.isCompact(precision)) {
      return LONG_IN_SLOT;
    }
    return (segs, base, slot, out) -> {
      long offsetAndNanos = getLong(segs, slot);
      long millis = getLong(segs, base + (int) (offsetAndNanos >> 32));
      int nanoOfMillisecond = (int) offsetAndNanos;
      out.writeAvroLong(millis * 1000 + nanoOfMillisecond / 1000);
    };
  }

  /** A string or binary: inline in the slot (at most 7 bytes) or at offset/length. */
  private static void encodeVariableBytes(
      MemorySegment[] segs, int base, int slot, BlockBuffer out) {
    long offsetAndSize = getLong(segs, slot);
    if ((offsetAndSize & INLINE_MARK) == 0) {
      out.writeAvroBytes(segs, base + (int) (offsetAndSize >> 32), (int) offsetAndSize);
    } else {
      int length = (int) ((offsetAndSize & INLINE_LENGTH_MASK) >>> 56);
      out.writeAvroBytes(segs, LITTLE_ENDIAN ? slot : slot + 1, length);
    }
  }

  /** Bytes always stored at offset/length (non-compact decimals). */
  private static void encodeOutOfLineBytes(
      MemorySegment[] segs, int base, int slot, BlockBuffer out) {
    long offsetAndSize = getLong(segs, slot);
    out.writeAvroBytes(segs, base + (int) (offsetAndSize >> 32), (int) offsetAndSize);
  }

  /** The unscaled value as minimal big-endian two's complement, like BigInteger.toByteArray. */
  static void encodeCompactDecimal(long unscaled, BlockBuffer out) {
    int bitLength = 64 - Long.numberOfLeadingZeros(unscaled ^ (unscaled >> 63));
    int length = bitLength / 8 + 1;
    out.writeAvroLong(length);
    for (int i = length - 1; i >= 0; i--) {
      out.writeByte((int) (unscaled >> (i * 8)));
    }
  }

  private static IllegalArgumentException unexpectedNull(String path) {
    return new IllegalArgumentException(
        "field "
            + path
            + " is NOT NULL in the row type but null in the row; declare it nullable or fix the"
            + " source");
  }

  /**
   * A row: null bits, then one 8-byte slot per field. Also the encoder of nested rows.
   *
   * <p>Fields whose encoder is one of the shared {@link #LONG_IN_SLOT}, {@link #INT_IN_SLOT} and
   * {@link #VARIABLE_BYTES} are encoded inline by a {@code switch} over {@link #slotKinds}; the
   * rest by their {@link ValueEncoder}. One call site for every field type is megamorphic on a row
   * that mixes three types, and its dispatch stub cost more than the encoding of a long.
   */
  private static final class RowEncoder implements ValueEncoder {
    private static final byte OTHER = 0;
    private static final byte LONG = 1;
    private static final byte INT = 2;
    private static final byte BYTES = 3;

    private final int arity;
    private final int nullBitsBytes;
    private final byte[] slotKinds;
    private final ValueEncoder[] fields;
    private final boolean[] nullable;
    private final String[] paths;

    RowEncoder(RowType rowType, String path) {
      List<RowType.RowField> rowFields = rowType.getFields();
      this.arity = rowFields.size();
      this.nullBitsBytes = BinaryRowData.calculateBitSetWidthInBytes(arity);
      this.slotKinds = new byte[arity];
      this.fields = new ValueEncoder[arity];
      this.nullable = new boolean[arity];
      this.paths = new String[arity];
      for (int i = 0; i < arity; i++) {
        RowType.RowField field = rowFields.get(i);
        paths[i] = path.isEmpty() ? field.getName() : path + "." + field.getName();
        fields[i] = encoderFor(field.getType(), paths[i]);
        slotKinds[i] = slotKind(fields[i]);
        nullable[i] = field.getType().isNullable();
      }
    }

    /** Which of the shared encoders {@code encoder} is, if any: the row loop inlines those. */
    private static byte slotKind(ValueEncoder encoder) {
      if (encoder == LONG_IN_SLOT) {
        return LONG;
      }
      if (encoder == INT_IN_SLOT) {
        return INT;
      }
      return encoder == VARIABLE_BYTES ? BYTES : OTHER;
    }

    @Override
    public void encode(MemorySegment[] segs, int base, int slot, BlockBuffer out) {
      encodeFields(segs, base + (int) (getLong(segs, slot) >> 32), out);
    }

    void encodeFields(MemorySegment[] segs, int rowBase, BlockBuffer out) {
      int slot = rowBase + nullBitsBytes;
      for (int i = 0; i < arity; i++, slot += 8) {
        boolean isNull = bitGet(segs, rowBase, i + BinaryRowData.HEADER_SIZE_IN_BITS);
        if (nullable[i]) {
          out.writeByte(isNull ? 0 : 2); // union branch 0 = null, 1 = the value (zig-zag)
        } else if (isNull) {
          throw unexpectedNull(paths[i]);
        }
        if (!isNull) {
          switch (slotKinds[i]) {
            case LONG -> out.writeAvroLong(getLong(segs, slot));
            case INT -> out.writeAvroLong(getInt(segs, slot));
            case BYTES -> encodeVariableBytes(segs, rowBase, slot, out);
            default -> fields[i].encode(segs, rowBase, slot, out);
          }
        }
      }
    }
  }

  /** An array: int32 count, null bits (4-byte words), then fixed-size element slots. */
  private static final class ArrayEncoder implements ValueEncoder {
    private final ValueEncoder element;
    private final int elementSize;
    private final boolean nullable;
    private final String path;

    ArrayEncoder(LogicalType elementType, String path) {
      this.path = path + "[]";
      this.element = encoderFor(elementType, this.path);
      this.elementSize = BinaryArrayData.calculateFixLengthPartSize(elementType);
      this.nullable = elementType.isNullable();
    }

    @Override
    public void encode(MemorySegment[] segs, int base, int slot, BlockBuffer out) {
      encodeArray(segs, base + (int) (getLong(segs, slot) >> 32), out);
    }

    void encodeArray(MemorySegment[] segs, int arrayBase, BlockBuffer out) {
      int count = getInt(segs, arrayBase);
      if (count > 0) {
        out.writeAvroLong(count);
        int elementSlot = arrayBase + BinaryArrayData.calculateHeaderInBytes(count);
        for (int i = 0; i < count; i++, elementSlot += elementSize) {
          encodeElement(segs, arrayBase, elementSlot, i, out);
        }
      }
      out.writeAvroLong(0);
    }

    void encodeElement(MemorySegment[] segs, int arrayBase, int slot, int index, BlockBuffer out) {
      boolean isNull = bitGet(segs, arrayBase + 4, index);
      if (nullable) {
        out.writeByte(isNull ? 0 : 2);
      } else if (isNull) {
        throw unexpectedNull(path);
      }
      if (!isNull) {
        element.encode(segs, arrayBase, slot, out);
      }
    }
  }

  /** A map: int32 size of the key array in bytes, the key array, the value array. */
  private static final class MapEncoder implements ValueEncoder {
    private final ArrayEncoder values;
    private final String path;

    MapEncoder(MapType type, String path) {
      this.path = path + "{}";
      this.values = new ArrayEncoder(type.getValueType(), path);
    }

    @Override
    public void encode(MemorySegment[] segs, int base, int slot, BlockBuffer out) {
      int mapBase = base + (int) (getLong(segs, slot) >> 32);
      int keyArrayBase = mapBase + 4;
      int valueArrayBase = keyArrayBase + getInt(segs, mapBase);
      int count = getInt(segs, keyArrayBase);
      if (count > 0) {
        out.writeAvroLong(count);
        int keySlot = keyArrayBase + BinaryArrayData.calculateHeaderInBytes(count);
        int valueSlot = valueArrayBase + BinaryArrayData.calculateHeaderInBytes(count);
        for (int i = 0; i < count; i++, keySlot += 8, valueSlot += values.elementSize) {
          if (bitGet(segs, keyArrayBase + 4, i)) {
            throw new IllegalArgumentException("map " + path + " has a null key; Avro maps cannot");
          }
          encodeVariableBytes(segs, keyArrayBase, keySlot, out);
          values.encodeElement(segs, valueArrayBase, valueSlot, i, out);
        }
      }
      out.writeAvroLong(0);
    }
  }
}
