package dev.mortar.serde;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.core.memory.MemorySegmentFactory;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinarySection;
import org.apache.flink.table.data.binary.BinarySegmentUtils;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.data.writer.BinaryRowWriter;
import org.apache.flink.table.data.writer.BinaryWriter;
import org.apache.flink.table.runtime.typeutils.InternalSerializers;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;

/**
 * Builds the payload of a {@link MortarRow} from any {@link RowData}: a {@link BinaryRowData} laid
 * out as Flink's {@code BinaryRowWriter} lays it out, except that strings and binaries of more than
 * 7 bytes are not padded to a multiple of 8: each such value saves up to 7 bytes on the wire and in
 * the write buffer (rfc/0001).
 *
 * <pre>
 * | header + null bits | slot 0 | ... | slot n-1 | string a | string b | other value | pad |
 *   row kind in byte 0   8 bytes per field        no padding between   Flink's own   to 8
 * </pre>
 *
 * <p>Nothing reads that padding: a slot holds {@code offset << 32 | length}, and Flink's getters
 * and {@code BinaryRowAvroEncoder} read those bytes wherever they lie. Strings, binaries and
 * primitives are written here, each copied once; a string or binary of at most 7 bytes, and every
 * other type (decimals, timestamps, arrays, maps, nested rows), is written by Flink's writer into a
 * one-field row and its slot and value copied over, so their encodings stay Flink's. Only the row's
 * end is padded, to a multiple of 8 ({@code BinaryRowData.hashCode} hashes whole words), and the
 * whole fixed part is zeroed per row, so equal rows have equal bytes.
 *
 * <p>A {@code BinaryRowData} input is returned as is, padding and all: copying it only to drop the
 * padding would cost more than the bytes save. The returned row is reused by the next call.
 *
 * <p>The copy is one {@code switch} over a per-field {@link Kind} rather than one object per field
 * behind an interface: with several field types that call is megamorphic, a dispatch stub per field
 * that is never inlined. Inside the switch each getter call sees the one row class a job delivers
 * and is inlined.
 */
public final class PayloadWriter {
  /** How a field is written. */
  private enum Kind {
    BOOLEAN,
    BYTE,
    SHORT,
    INT,
    LONG,
    FLOAT,
    DOUBLE,
    STRING,
    BINARY,
    THROUGH_FLINK
  }

  /** The longest string or binary Flink keeps inside its slot. */
  private static final int INLINE_LIMIT = 7;

  /** Where the one-field row's slot lies, and where its value starts when not in the slot. */
  private static final int SINGLE_SLOT = BinaryRowData.calculateBitSetWidthInBytes(1);

  private static final int SINGLE_FIXED_PART = BinaryRowData.calculateFixPartSizeInBytes(1);

  /**
   * The array's first size: rows up to this size never grow it, so a job's first rows take the
   * branch every later row takes, and the code the JIT compiled in an earlier job of the same JVM
   * keeps running (rfc/0005, "Per-job deoptimization").
   */
  private static final int INITIAL_BYTES = 64 * 1024;

  private final Kind[] kinds;
  private final LogicalType[] types;

  /** For {@link Kind#THROUGH_FLINK} fields: Flink's getter and serializer; null elsewhere. */
  private final RowData.FieldGetter[] flinkGetters;

  private final TypeSerializer<?>[] flinkSerializers;

  private final int nullBitsBytes;
  private final int fixedPartBytes;
  private final BinaryRowData row;
  private byte[] bytes;
  private MemorySegment segment;

  /** {@link #segment} alone, for the row to point at without a new array per row. */
  private MemorySegment[] segments;

  private int cursor;

  /** A one-field row that Flink's writer fills with a value this class does not lay out itself. */
  private final BinaryRowData single = new BinaryRowData(1);

  private final BinaryRowWriter singleWriter = new BinaryRowWriter(single);

  public PayloadWriter(RowType rowType) {
    int arity = rowType.getFieldCount();
    kinds = new Kind[arity];
    types = rowType.getChildren().toArray(new LogicalType[0]);
    flinkGetters = new RowData.FieldGetter[arity];
    flinkSerializers = new TypeSerializer<?>[arity];
    for (int i = 0; i < arity; i++) {
      kinds[i] = kindOf(types[i]);
      if (kinds[i] == Kind.THROUGH_FLINK) {
        flinkGetters[i] = RowData.createFieldGetter(types[i], i);
        flinkSerializers[i] = InternalSerializers.create(types[i]);
      }
    }
    nullBitsBytes = BinaryRowData.calculateBitSetWidthInBytes(arity);
    fixedPartBytes = BinaryRowData.calculateFixPartSizeInBytes(arity);
    row = new BinaryRowData(arity);
    bytes = new byte[Math.max(INITIAL_BYTES, 2 * fixedPartBytes)];
    segment = MemorySegmentFactory.wrap(bytes);
    segments = new MemorySegment[] {segment};
  }

  /** {@code input} as a binary row without padding; the result is reused by the next call. */
  public BinaryRowData toBinaryRow(RowData input) {
    if (input instanceof BinaryRowData binary) {
      return binary;
    }
    Arrays.fill(bytes, 0, fixedPartBytes, (byte) 0);
    segment.put(0, input.getRowKind().toByteValue());
    cursor = fixedPartBytes;
    for (int i = 0; i < kinds.length; i++) {
      int slot = nullBitsBytes + 8 * i;
      if (input.isNullAt(i)) {
        BinarySegmentUtils.bitSet(segment, 0, i + 8);
        continue;
      }
      switch (kinds[i]) {
        case BOOLEAN -> segment.putBoolean(slot, input.getBoolean(i));
        case BYTE -> segment.put(slot, input.getByte(i));
        case SHORT -> segment.putShort(slot, input.getShort(i));
        case INT -> segment.putInt(slot, input.getInt(i));
        case LONG -> segment.putLong(slot, input.getLong(i));
        case FLOAT -> segment.putFloat(slot, input.getFloat(i));
        case DOUBLE -> segment.putDouble(slot, input.getDouble(i));
        case STRING -> writeString(slot, input.getString(i));
        case BINARY -> writeBinary(slot, input.getBinary(i));
        case THROUGH_FLINK -> writeThroughFlink(i, slot, flinkGetters[i].getFieldOrNull(input));
      }
    }
    int size = (cursor + 7) & -8;
    ensureCapacity(size);
    Arrays.fill(bytes, cursor, size, (byte) 0);
    row.pointTo(segments, 0, size);
    return row;
  }

  private void writeString(int slot, StringData value) {
    BinarySection string = ((BinaryStringData) value).getBinarySection();
    if (string == null) {
      // Only a Java string so far (DataGen's, for one): its UTF-8 bytes (the bytes Flink's encoder
      // makes), without making the input string hold them too as BinaryStringData's getters would.
      writeBinary(slot, value.toString().getBytes(StandardCharsets.UTF_8));
      return;
    }
    int length = string.getSizeInBytes();
    if (length <= INLINE_LIMIT) {
      singleWriter.reset();
      singleWriter.writeString(0, value);
      copyFromSingle(slot);
      return;
    }
    ensureCapacity(cursor + length);
    BinarySegmentUtils.copyToBytes(string.getSegments(), string.getOffset(), bytes, cursor, length);
    appendedAt(slot, length);
  }

  private void writeBinary(int slot, byte[] value) {
    if (value.length <= INLINE_LIMIT) {
      singleWriter.reset();
      singleWriter.writeBinary(0, value);
      copyFromSingle(slot);
      return;
    }
    ensureCapacity(cursor + value.length);
    System.arraycopy(value, 0, bytes, cursor, value.length);
    appendedAt(slot, value.length);
  }

  /** Points {@code slot} at the {@code length} bytes just copied to the cursor, and moves past. */
  private void appendedAt(int slot, int length) {
    segment.putLong(slot, ((long) cursor << 32) | length);
    cursor += length;
  }

  /** Lets Flink's writer lay out the value in the one-field row, then copies it over. */
  private void writeThroughFlink(int field, int slot, Object value) {
    singleWriter.reset();
    BinaryWriter.write(singleWriter, 0, value, types[field], flinkSerializers[field]);
    copyFromSingle(slot);
  }

  /**
   * Copies the one-field row's slot to {@code slot} and, when its value lies outside the slot, the
   * value to the cursor, pointing the slot at the copy.
   */
  private void copyFromSingle(int slot) {
    singleWriter.complete();
    MemorySegment source = single.getSegments()[0];
    long singleSlot = source.getLong(SINGLE_SLOT);
    int valueBytes = single.getSizeInBytes() - SINGLE_FIXED_PART;
    if (valueBytes == 0) {
      segment.putLong(slot, singleSlot);
      return;
    }
    ensureCapacity(cursor + valueBytes);
    source.copyTo(SINGLE_FIXED_PART, segment, cursor, valueBytes);
    segment.putLong(slot, ((long) cursor << 32) | (singleSlot & 0xFFFF_FFFFL));
    cursor += valueBytes;
  }

  private void ensureCapacity(int needed) {
    if (needed > bytes.length) {
      bytes = Arrays.copyOf(bytes, Math.max(needed, 2 * bytes.length));
      segment = MemorySegmentFactory.wrap(bytes);
      segments = new MemorySegment[] {segment};
    }
  }

  private static Kind kindOf(LogicalType type) {
    return switch (type.getTypeRoot()) {
      case BOOLEAN -> Kind.BOOLEAN;
      case TINYINT -> Kind.BYTE;
      case SMALLINT -> Kind.SHORT;
      case INTEGER, DATE, TIME_WITHOUT_TIME_ZONE, INTERVAL_YEAR_MONTH -> Kind.INT;
      case BIGINT, INTERVAL_DAY_TIME -> Kind.LONG;
      case FLOAT -> Kind.FLOAT;
      case DOUBLE -> Kind.DOUBLE;
      case CHAR, VARCHAR -> Kind.STRING;
      case BINARY, VARBINARY -> Kind.BINARY;
      default -> Kind.THROUGH_FLINK;
    };
  }
}
