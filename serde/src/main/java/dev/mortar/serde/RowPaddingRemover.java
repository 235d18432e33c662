package dev.mortar.serde;

import java.util.Arrays;
import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.types.logical.DistinctType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.utils.LogicalTypeChecks;

/**
 * Removes, in place, the padding that Flink's {@code BinaryRowWriter} puts after each
 * variable-length value of a {@link BinaryRowData}, so the row crosses the shuffle and sits in the
 * write buffer in fewer bytes. On the benchmark's Schema3 (50 strings of 100 bytes) that is 200 of
 * 5,616 bytes per row: the difference between the binary row and Avro on the wire (rfc/0001).
 *
 * <pre>
 * before: | null bits | slot 0 ... slot n-1 | value a | pad | value b | pad | value c | pad |
 * after:  | null bits | slot 0 ... slot n-1 | value a | value b | value c | pad |
 * </pre>
 *
 * <p>Flink's writer appends each variable-length value (a string or binary of more than 7 bytes, a
 * non-compact decimal or timestamp, an array, map or nested row) to the end of the row and rounds
 * its length up to a multiple of 8: a 100-byte string takes 104. Its slot holds {@code offset << 32
 * | length} (a non-compact timestamp: {@code offset << 32 | nanos}, 8 bytes at the offset), and
 * every reader, Flink's and {@code BinaryRowAvroEncoder}, reads exactly those bytes wherever they
 * lie: nothing reads the padding or needs a value to start at a multiple of 8. This class moves
 * each value down to where the previous one ends and rewrites its offset. Values keep their own
 * inner layout (a nested row or array is moved as a whole), and the row as a whole stays a multiple
 * of 8 long, zero-padded at its end, as {@code BinaryRowData.hashCode} hashes whole words.
 *
 * <p>Values are moved in field order, so a row must hold them in field order, as {@code
 * BinaryRowWriter} does when its fields are written in order ({@code RowDataSerializer.toBinaryRow}
 * and Mortar's payload step do). A row that holds them in another order, or spans several memory
 * segments, is left exactly as it is: still a valid row, only not smaller. Not thread-safe: it
 * keeps scratch arrays for the row it works on.
 */
public final class RowPaddingRemover {
  /** Where a field's value lies when it is not null and not in its slot. */
  private enum VariablePart {
    /** String or binary: more than 7 bytes at the slot's offset, else inline in the slot. */
    BYTES,
    /** Non-compact timestamp: 8 bytes of epoch millis at the slot's offset. */
    EIGHT_BYTES,
    /** Non-compact decimal, array, map, multiset, nested row, raw: the slot's length in bytes. */
    LENGTH_IN_SLOT
  }

  /** The slot's highest bit: a string or binary of at most 7 bytes is inline in the slot. */
  private static final long INLINE_MARK = 0x80L << 56;

  private final int arity;
  private final int fixedPartBytes;

  /**
   * The fields that may keep a value outside their slot, in field order: position, slot offset in
   * the row, and where the value lies.
   */
  private final int[] variableFields;

  private final int[] variableSlots;
  private final VariablePart[] variableParts;

  /** Scratch for one row: slot offset, value offset and length of each value outside its slot. */
  private final int[] valueSlots;

  private final int[] valueOffsets;
  private final int[] valueLengths;

  /**
   * @throws IllegalArgumentException naming the field, for a type a {@link BinaryRowData} cannot
   *     hold
   */
  public RowPaddingRemover(RowType rowType) {
    arity = rowType.getFieldCount();
    fixedPartBytes = BinaryRowData.calculateFixPartSizeInBytes(arity);
    int nullBitsBytes = BinaryRowData.calculateBitSetWidthInBytes(arity);
    int[] fields = new int[arity];
    VariablePart[] parts = new VariablePart[arity];
    int count = 0;
    for (int i = 0; i < arity; i++) {
      VariablePart part = variablePartOf(rowType.getTypeAt(i), rowType.getFieldNames().get(i));
      if (part != null) {
        fields[count] = i;
        parts[count] = part;
        count++;
      }
    }
    variableFields = Arrays.copyOf(fields, count);
    variableParts = Arrays.copyOf(parts, count);
    variableSlots = new int[count];
    for (int k = 0; k < count; k++) {
      variableSlots[k] = nullBitsBytes + 8 * variableFields[k];
    }
    valueSlots = new int[count];
    valueOffsets = new int[count];
    valueLengths = new int[count];
  }

  /**
   * Moves the variable-length values of {@code row} together behind its fixed part and shrinks its
   * size to match; a row in another layout is left as it is (see the class comment).
   *
   * @throws IllegalArgumentException when the row's arity is not the row type's
   */
  public void removePadding(BinaryRowData row) {
    if (row.getArity() != arity) {
      throw new IllegalArgumentException(
          "row has " + row.getArity() + " fields, the row type " + arity);
    }
    if (row.getSegments().length != 1) {
      return;
    }
    MemorySegment segment = row.getSegments()[0];
    int base = row.getOffset();
    int values = collectValues(row, segment, base);
    if (values < 0) {
      return;
    }
    int end = fixedPartBytes;
    for (int k = 0; k < values; k++) {
      if (valueOffsets[k] != end) {
        segment.copyTo(base + valueOffsets[k], segment, base + end, valueLengths[k]);
        int slotAt = base + valueSlots[k];
        segment.putLong(slotAt, ((long) end << 32) | (segment.getLong(slotAt) & 0xFFFF_FFFFL));
      }
      end += valueLengths[k];
    }
    int size = (end + 7) & -8;
    for (int i = end; i < size; i++) {
      segment.put(base + i, (byte) 0);
    }
    row.setTotalSize(size);
  }

  /**
   * Fills the scratch arrays with the row's values outside their slots, in field order; returns how
   * many, or -1 when they do not lie in field order, each after the last, inside the row.
   */
  private int collectValues(BinaryRowData row, MemorySegment segment, int base) {
    int values = 0;
    int previousEnd = fixedPartBytes;
    for (int k = 0; k < variableFields.length; k++) {
      if (row.isNullAt(variableFields[k])) {
        continue;
      }
      long slot = segment.getLong(base + variableSlots[k]);
      VariablePart part = variableParts[k];
      if (part == VariablePart.BYTES && (slot & INLINE_MARK) != 0) {
        continue;
      }
      int offset = (int) (slot >>> 32);
      int length = part == VariablePart.EIGHT_BYTES ? 8 : (int) slot;
      if (offset < previousEnd || length < 0 || offset + length > row.getSizeInBytes()) {
        return -1;
      }
      previousEnd = offset + length;
      valueSlots[values] = variableSlots[k];
      valueOffsets[values] = offset;
      valueLengths[values] = length;
      values++;
    }
    return values;
  }

  /** Where a value of {@code type} lies when it is not in its slot; null if always in its slot. */
  private static VariablePart variablePartOf(LogicalType type, String field) {
    switch (type.getTypeRoot()) {
      case CHAR:
      case VARCHAR:
      case BINARY:
      case VARBINARY:
        return VariablePart.BYTES;
      case DECIMAL:
        return DecimalData.isCompact(LogicalTypeChecks.getPrecision(type))
            ? null
            : VariablePart.LENGTH_IN_SLOT;
      case TIMESTAMP_WITHOUT_TIME_ZONE:
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
        return TimestampData.isCompact(LogicalTypeChecks.getPrecision(type))
            ? null
            : VariablePart.EIGHT_BYTES;
      case ARRAY:
      case MAP:
      case MULTISET:
      case ROW:
      case STRUCTURED_TYPE:
      case RAW:
        return VariablePart.LENGTH_IN_SLOT;
      case DISTINCT_TYPE:
        return variablePartOf(((DistinctType) type).getSourceType(), field);
      case BOOLEAN:
      case TINYINT:
      case SMALLINT:
      case INTEGER:
      case BIGINT:
      case FLOAT:
      case DOUBLE:
      case DATE:
      case TIME_WITHOUT_TIME_ZONE:
      case INTERVAL_YEAR_MONTH:
      case INTERVAL_DAY_TIME:
      case NULL:
        return null;
      default:
        throw new IllegalArgumentException(
            "field "
                + field
                + " of type "
                + type.asSummaryString()
                + " has no BinaryRowData layout to remove padding from");
    }
  }
}
