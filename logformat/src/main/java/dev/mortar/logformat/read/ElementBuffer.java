package dev.mortar.logformat.read;

import org.apache.flink.table.data.binary.BinaryArrayData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.writer.BinaryArrayWriter;
import org.apache.flink.table.data.writer.BinaryRowWriter;
import org.apache.flink.table.data.writer.BinaryWriter;
import org.apache.flink.table.runtime.typeutils.ArrayDataSerializer;
import org.apache.flink.table.runtime.typeutils.MapDataSerializer;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.utils.LogicalTypeChecks;

/**
 * Collects the elements of one array (or the keys or the values of one map) of a record and then
 * writes them as a {@link BinaryArrayData}. A {@link BinaryArrayWriter} must know the element count
 * up front and Parquet tells it only at the end, so the elements are first written into a staging
 * row whose field {@code i} is element {@code i}. The staging row doubles when full and, like the
 * array writers of small sizes, is reused from record to record.
 */
final class ElementBuffer implements Slot {
  private static final int INITIAL_CAPACITY = 8;
  private static final int CACHED_SIZES = 32;

  private final ElementCopier copier;
  private final BinaryArrayWriter.NullSetter nullSetter;
  private final int elementSize;

  /** The finished array; every array writer of this buffer writes into it. */
  private final BinaryArrayData array = new BinaryArrayData();

  private final BinaryArrayWriter[] writersBySize = new BinaryArrayWriter[CACHED_SIZES];
  private BinaryRowData staging;
  private BinaryRowWriter stagingWriter;
  private int count;

  ElementBuffer(LogicalType elementType) {
    this.copier = copier(elementType);
    this.nullSetter = BinaryArrayWriter.createNullSetter(elementType);
    this.elementSize = BinaryArrayData.calculateFixLengthPartSize(elementType);
    this.staging = new BinaryRowData(INITIAL_CAPACITY);
    this.stagingWriter = new BinaryRowWriter(staging);
  }

  /** Starts a new collection. */
  void reset() {
    count = 0;
    stagingWriter.reset();
  }

  /** Number of elements collected so far. */
  int count() {
    return count;
  }

  void appendNull() {
    int pos = claim();
    stagingWriter.setNullAt(pos);
  }

  @Override
  public int claim() {
    if (count == staging.getArity()) {
      grow();
    }
    return count++;
  }

  @Override
  public BinaryWriter writer() {
    return stagingWriter;
  }

  /** The collected elements as an array; valid until this buffer finishes its next collection. */
  BinaryArrayData finish() {
    stagingWriter.complete();
    BinaryArrayWriter writer = arrayWriter(count);
    copyElements(writer);
    writer.complete();
    return array;
  }

  private BinaryArrayWriter arrayWriter(int size) {
    if (size >= CACHED_SIZES) {
      return new BinaryArrayWriter(array, size, elementSize);
    }
    BinaryArrayWriter writer = writersBySize[size];
    if (writer == null) {
      writer = new BinaryArrayWriter(array, size, elementSize);
      writersBySize[size] = writer;
    } else {
      writer.reset();
    }
    return writer;
  }

  private void grow() {
    stagingWriter.complete();
    BinaryRowData larger = new BinaryRowData(staging.getArity() * 2);
    BinaryRowWriter largerWriter = new BinaryRowWriter(larger);
    for (int i = 0; i < count; i++) {
      if (staging.isNullAt(i)) {
        largerWriter.setNullAt(i);
      } else {
        copier.copy(staging, i, largerWriter);
      }
    }
    staging = larger;
    stagingWriter = largerWriter;
  }

  private void copyElements(BinaryArrayWriter writer) {
    for (int i = 0; i < count; i++) {
      if (staging.isNullAt(i)) {
        nullSetter.setNull(writer, i);
      } else {
        copier.copy(staging, i, writer);
      }
    }
  }

  /** Copies the non-null element at {@code pos} of the staging row to {@code pos} of a writer. */
  @FunctionalInterface
  private interface ElementCopier {
    void copy(BinaryRowData from, int pos, BinaryWriter to);
  }

  private static ElementCopier copier(LogicalType type) {
    switch (type.getTypeRoot()) {
      case BOOLEAN:
        return (from, pos, to) -> to.writeBoolean(pos, from.getBoolean(pos));
      case TINYINT:
        return (from, pos, to) -> to.writeByte(pos, from.getByte(pos));
      case SMALLINT:
        return (from, pos, to) -> to.writeShort(pos, from.getShort(pos));
      case INTEGER:
      case DATE:
      case TIME_WITHOUT_TIME_ZONE:
        return (from, pos, to) -> to.writeInt(pos, from.getInt(pos));
      case BIGINT:
        return (from, pos, to) -> to.writeLong(pos, from.getLong(pos));
      case FLOAT:
        return (from, pos, to) -> to.writeFloat(pos, from.getFloat(pos));
      case DOUBLE:
        return (from, pos, to) -> to.writeDouble(pos, from.getDouble(pos));
      case CHAR:
      case VARCHAR:
        return (from, pos, to) -> to.writeString(pos, from.getString(pos));
      case BINARY:
      case VARBINARY:
        return (from, pos, to) -> to.writeBinary(pos, from.getBinary(pos));
      case DECIMAL:
        int precision = LogicalTypeChecks.getPrecision(type);
        int scale = LogicalTypeChecks.getScale(type);
        return (from, pos, to) ->
            to.writeDecimal(pos, from.getDecimal(pos, precision, scale), precision);
      case TIMESTAMP_WITHOUT_TIME_ZONE:
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
        int timestampPrecision = LogicalTypeChecks.getPrecision(type);
        return (from, pos, to) ->
            to.writeTimestamp(pos, from.getTimestamp(pos, timestampPrecision), timestampPrecision);
      case ARRAY:
        ArrayDataSerializer arrays = new ArrayDataSerializer(((ArrayType) type).getElementType());
        return (from, pos, to) -> to.writeArray(pos, from.getArray(pos), arrays);
      case MAP:
        MapType mapType = (MapType) type;
        MapDataSerializer maps =
            new MapDataSerializer(mapType.getKeyType(), mapType.getValueType());
        return (from, pos, to) -> to.writeMap(pos, from.getMap(pos), maps);
      case ROW:
        int arity = ((RowType) type).getFieldCount();
        RowDataSerializer rows = new RowDataSerializer((RowType) type);
        return (from, pos, to) -> to.writeRow(pos, from.getRow(pos, arity), rows);
      default:
        throw new IllegalArgumentException(
            "arrays of " + type.asSummaryString() + " are not supported");
    }
  }
}
