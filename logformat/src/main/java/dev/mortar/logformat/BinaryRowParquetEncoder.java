package dev.mortar.logformat;

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
import org.apache.parquet.io.api.RecordConsumer;

/**
 * Hands the data fields of a {@link BinaryRowData} to a parquet-mr {@link RecordConsumer} in the
 * layout of {@link ParquetSchemas}, reading every value straight from the row's memory segments:
 * primitives from their slots, strings, binaries and decimals as {@link ParquetBinaries} over the
 * segments, arrays, maps and nested rows by their offsets. No {@code RowData} getter, no boxed
 * value, no object per element. The row type is compiled once into a tree of {@link ValueWriter}s.
 * Where Flink keeps each value is described in {@link BinaryRowAvroEncoder}; the values passed are
 * those parquet-avro passes for the Avro datum of the same row.
 *
 * <p>The data fields may follow other fields of the row ({@code firstField}): a stored row of the
 * compactor holds the meta fields first.
 */
final class BinaryRowParquetEncoder {
  /** Writes the non-null value whose slot is at {@code slot} of a row or array at {@code base}. */
  @FunctionalInterface
  interface ValueWriter {
    void write(MemorySegment[] segments, int base, int slot, RecordConsumer consumer);
  }

  /** A long in the slot (BIGINT, compact timestamps); {@link RowWriter} writes it inline. */
  private static final ValueWriter LONG_IN_SLOT =
      (segs, base, slot, c) -> c.addLong(getLong(segs, slot));

  /** An int in the slot (INT, DATE, TIME); {@link RowWriter} writes it inline. */
  private static final ValueWriter INT_IN_SLOT =
      (segs, base, slot, c) -> c.addInteger(getInt(segs, slot));

  private final ParquetBinaries binaries = new ParquetBinaries();

  /** A string or binary; {@link RowWriter} writes it inline. */
  private final ValueWriter variableBytes =
      (segs, base, slot, c) -> c.addBinary(binaries.variable(segs, base, slot));

  private final int rowArity;
  private final RowWriter root;

  /**
   * @param dataType the fields written, at positions {@code firstField} onwards of the row
   * @param firstParquetField the Parquet field index of the first of them
   */
  BinaryRowParquetEncoder(RowType dataType, int firstField, int firstParquetField) {
    this.rowArity = firstField + dataType.getFieldCount();
    this.root = new RowWriter(dataType, "", firstField, rowArity, firstParquetField);
  }

  /** Writes the data fields of {@code row} into the record the consumer has open. */
  void writeFields(BinaryRowData row, RecordConsumer consumer) {
    if (row.getArity() != rowArity) {
      throw new IllegalArgumentException(
          "row has " + row.getArity() + " fields, the stored row type " + rowArity);
    }
    root.writeFields(row.getSegments(), row.getOffset(), consumer);
  }

  private ValueWriter writerFor(LogicalType type, String path) {
    switch (type.getTypeRoot()) {
      case BOOLEAN:
        return (segs, base, slot, c) -> c.addBoolean(getBoolean(segs, slot));
      case TINYINT:
        return (segs, base, slot, c) -> c.addInteger(getByte(segs, slot));
      case SMALLINT:
        return (segs, base, slot, c) -> c.addInteger(getShort(segs, slot));
      case INTEGER:
      case DATE:
      case TIME_WITHOUT_TIME_ZONE:
        return INT_IN_SLOT;
      case BIGINT:
        return LONG_IN_SLOT;
      case FLOAT:
        return (segs, base, slot, c) -> c.addFloat(getFloat(segs, slot));
      case DOUBLE:
        return (segs, base, slot, c) -> c.addDouble(getDouble(segs, slot));
      case CHAR:
      case VARCHAR:
      case BINARY:
      case VARBINARY:
        return variableBytes;
      case DECIMAL:
        return DecimalData.isCompact(((DecimalType) type).getPrecision())
            ? (segs, base, slot, c) -> c.addBinary(binaries.compactDecimal(getLong(segs, slot)))
            : (segs, base, slot, c) -> c.addBinary(binaries.outOfLine(segs, base, slot));
      case TIMESTAMP_WITHOUT_TIME_ZONE:
        return timestampWriter(((TimestampType) type).getPrecision());
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
        return timestampWriter(((LocalZonedTimestampType) type).getPrecision());
      case ARRAY:
        return new ArrayWriter(((ArrayType) type).getElementType(), path);
      case MAP:
        return new MapWriter((MapType) type, path);
      case ROW:
        RowType rowType = (RowType) type;
        return new RowWriter(rowType, path, 0, rowType.getFieldCount(), 0);
      default:
        throw new IllegalArgumentException(
            "field " + path + " of type " + type.asSummaryString() + " has no Parquet mapping");
    }
  }

  /** Compact timestamps keep epoch millis in the slot; the others are written as micros. */
  private static ValueWriter timestampWriter(int precision) {
    if (TimestampData.isCompact(precision)) {
      return LONG_IN_SLOT;
    }
    return (segs, base, slot, c) -> c.addLong(timestampMicros(segs, base, slot));
  }

  /** A non-compact timestamp (millis out of line, nanos of the milli in the slot) in micros. */
  static long timestampMicros(MemorySegment[] segs, int base, int slot) {
    long offsetAndNanos = getLong(segs, slot);
    long millis = getLong(segs, base + (int) (offsetAndNanos >> 32));
    int nanoOfMillisecond = (int) offsetAndNanos;
    return millis * 1000 + nanoOfMillisecond / 1000;
  }

  private static IllegalArgumentException unexpectedNull(String path) {
    return new IllegalArgumentException(
        "field "
            + path
            + " is NOT NULL in the row type but null in the row; declare it nullable or fix the"
            + " source");
  }

  /**
   * A row: null bits, then one 8-byte slot per field. Also the writer of nested rows (a Parquet
   * group). As in {@link BinaryRowAvroEncoder}, fields whose writer is {@link #LONG_IN_SLOT},
   * {@link #INT_IN_SLOT} or {@link #variableBytes} are written inline by a {@code switch} over
   * {@link #slotKinds}, so the one call site of the rest is not megamorphic on common rows.
   */
  private final class RowWriter implements ValueWriter {
    private static final byte OTHER = 0;
    private static final byte LONG = 1;
    private static final byte INT = 2;
    private static final byte BYTES = 3;

    private final int firstField;
    private final int nullBitsBytes;
    private final int firstParquetField;
    private final String[] names;
    private final String[] paths;
    private final ValueWriter[] fields;
    private final byte[] slotKinds;
    private final boolean[] nullable;

    RowWriter(RowType rowType, String path, int firstField, int rowArity, int firstParquetField) {
      List<RowType.RowField> rowFields = rowType.getFields();
      int count = rowFields.size();
      this.firstField = firstField;
      this.nullBitsBytes = BinaryRowData.calculateBitSetWidthInBytes(rowArity);
      this.firstParquetField = firstParquetField;
      this.names = new String[count];
      this.paths = new String[count];
      this.fields = new ValueWriter[count];
      this.slotKinds = new byte[count];
      this.nullable = new boolean[count];
      for (int i = 0; i < count; i++) {
        RowType.RowField field = rowFields.get(i);
        names[i] = field.getName();
        paths[i] = path.isEmpty() ? field.getName() : path + "." + field.getName();
        fields[i] = writerFor(field.getType(), paths[i]);
        slotKinds[i] = slotKind(fields[i]);
        nullable[i] = field.getType().isNullable();
      }
    }

    private byte slotKind(ValueWriter writer) {
      if (writer == LONG_IN_SLOT) {
        return LONG;
      }
      if (writer == INT_IN_SLOT) {
        return INT;
      }
      return writer == variableBytes ? BYTES : OTHER;
    }

    @Override
    public void write(MemorySegment[] segs, int base, int slot, RecordConsumer c) {
      c.startGroup();
      writeFields(segs, base + (int) (getLong(segs, slot) >> 32), c);
      c.endGroup();
    }

    void writeFields(MemorySegment[] segs, int rowBase, RecordConsumer c) {
      int slot = rowBase + nullBitsBytes + firstField * 8;
      for (int i = 0; i < fields.length; i++, slot += 8) {
        if (bitGet(segs, rowBase, firstField + i + BinaryRowData.HEADER_SIZE_IN_BITS)) {
          if (!nullable[i]) {
            throw unexpectedNull(paths[i]);
          }
          continue;
        }
        int index = firstParquetField + i;
        c.startField(names[i], index);
        switch (slotKinds[i]) {
          case LONG -> c.addLong(getLong(segs, slot));
          case INT -> c.addInteger(getInt(segs, slot));
          case BYTES -> c.addBinary(binaries.variable(segs, rowBase, slot));
          default -> fields[i].write(segs, rowBase, slot, c);
        }
        c.endField(names[i], index);
      }
    }
  }

  /**
   * An array (int32 count, null bits in 4-byte words, fixed-size element slots) as the 3-level list
   * group {@code list/element}; an empty array is an empty group.
   */
  private final class ArrayWriter implements ValueWriter {
    private final ValueWriter element;
    private final int elementSize;
    private final boolean nullable;
    private final String path;

    ArrayWriter(LogicalType elementType, String path) {
      this.path = path + "[]";
      this.element = writerFor(elementType, this.path);
      this.elementSize = BinaryArrayData.calculateFixLengthPartSize(elementType);
      this.nullable = elementType.isNullable();
    }

    @Override
    public void write(MemorySegment[] segs, int base, int slot, RecordConsumer c) {
      int arrayBase = base + (int) (getLong(segs, slot) >> 32);
      int count = getInt(segs, arrayBase);
      c.startGroup();
      if (count > 0) {
        c.startField("list", 0);
        int elementSlot = arrayBase + BinaryArrayData.calculateHeaderInBytes(count);
        for (int i = 0; i < count; i++, elementSlot += elementSize) {
          c.startGroup();
          writeElement(segs, arrayBase, elementSlot, i, "element", 0, c);
          c.endGroup();
        }
        c.endField("list", 0);
      }
      c.endGroup();
    }

    /** The element at {@code index} as the field {@code name} of the open group, unless null. */
    void writeElement(
        MemorySegment[] segs,
        int arrayBase,
        int slot,
        int index,
        String name,
        int fieldIndex,
        RecordConsumer c) {
      if (bitGet(segs, arrayBase + 4, index)) {
        if (!nullable) {
          throw unexpectedNull(path);
        }
        return;
      }
      c.startField(name, fieldIndex);
      element.write(segs, arrayBase, slot, c);
      c.endField(name, fieldIndex);
    }
  }

  /**
   * A map (int32 size of the key array in bytes, the key array, the value array) as the group of
   * {@code key_value} groups, each a string key and an optional value.
   */
  private final class MapWriter implements ValueWriter {
    private final ArrayWriter values;
    private final String path;

    MapWriter(MapType type, String path) {
      this.path = path + "{}";
      this.values = new ArrayWriter(type.getValueType(), path);
    }

    @Override
    public void write(MemorySegment[] segs, int base, int slot, RecordConsumer c) {
      int mapBase = base + (int) (getLong(segs, slot) >> 32);
      int keyArrayBase = mapBase + 4;
      int valueArrayBase = keyArrayBase + getInt(segs, mapBase);
      int count = getInt(segs, keyArrayBase);
      c.startGroup();
      if (count > 0) {
        c.startField("key_value", 0);
        int keySlot = keyArrayBase + BinaryArrayData.calculateHeaderInBytes(count);
        int valueSlot = valueArrayBase + BinaryArrayData.calculateHeaderInBytes(count);
        for (int i = 0; i < count; i++, keySlot += 8, valueSlot += values.elementSize) {
          if (bitGet(segs, keyArrayBase + 4, i)) {
            throw new IllegalArgumentException(
                "map " + path + " has a null key; Parquet map keys are required");
          }
          c.startGroup();
          c.startField("key", 0);
          c.addBinary(binaries.variable(segs, keyArrayBase, keySlot));
          c.endField("key", 0);
          values.writeElement(segs, valueArrayBase, valueSlot, i, "value", 1, c);
          c.endGroup();
        }
        c.endField("key_value", 0);
      }
      c.endGroup();
    }
  }
}
