package dev.mortar.benchmark.logformat;

import dev.mortar.logformat.AvroSchemas;
import dev.mortar.logformat.ParquetSchemas;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.MessageType;

/**
 * Mortar's Parquet record writing before issue 30, kept as the baseline of {@link
 * ParquetBlockBenchmark} and the reference of {@code ParquetBlockContenderTest}: every field read
 * through {@link RowData} getters and boxed, a {@code byte[]} per string that does not lie in one
 * heap segment, every decimal through {@code BigDecimal}, the meta values set per record as {@link
 * Binary} objects. Its records are those of the same schema ({@link ParquetSchemas}).
 */
final class RowDataGettersWriteSupport extends WriteSupport<RowData> {
  private final MessageType parquetSchema;
  private final String avroSchemaJson;
  private final boolean metaFields;
  private final ColumnWriter[] columnWriters;
  private final String[] names;
  private final Binary[] metaValues = new Binary[AvroSchemas.META_FIELDS.size()];
  private RecordConsumer consumer;

  /** Writes one non-null value of a field. */
  @FunctionalInterface
  private interface FieldWriter {
    void write(RecordConsumer consumer, Object value);
  }

  /** Writes the non-null value at a position of a row, unboxed where the type allows. */
  @FunctionalInterface
  private interface ColumnWriter {
    void write(RecordConsumer consumer, RowData row, int position);
  }

  RowDataGettersWriteSupport(RowType rowType, Schema avroSchema, boolean metaFields) {
    this.parquetSchema = ParquetSchemas.of(rowType, avroSchema, metaFields);
    this.avroSchemaJson = avroSchema.toString();
    this.metaFields = metaFields;
    List<RowType.RowField> fields = rowType.getFields();
    this.columnWriters = new ColumnWriter[fields.size()];
    this.names = new String[fields.size()];
    for (int i = 0; i < fields.size(); i++) {
      columnWriters[i] = columnWriterFor(fields.get(i).getType(), i);
      names[i] = fields.get(i).getName();
    }
  }

  /** Meta field values of the next record, in {@link AvroSchemas#META_FIELDS} order. */
  void setMetaValues(
      Binary commitTime, Binary seqno, Binary recordKey, Binary partition, Binary fileId) {
    metaValues[0] = commitTime;
    metaValues[1] = seqno;
    metaValues[2] = recordKey;
    metaValues[3] = partition;
    metaValues[4] = fileId;
  }

  @Override
  public WriteContext init(Configuration configuration) {
    return new WriteContext(parquetSchema, Map.of("parquet.avro.schema", avroSchemaJson));
  }

  @Override
  public void prepareForWrite(RecordConsumer recordConsumer) {
    this.consumer = recordConsumer;
  }

  @Override
  public void write(RowData row) {
    consumer.startMessage();
    int index = 0;
    if (metaFields) {
      for (; index < metaValues.length; index++) {
        String name = AvroSchemas.META_FIELDS.get(index);
        consumer.startField(name, index);
        consumer.addBinary(metaValues[index]);
        consumer.endField(name, index);
      }
    }
    for (int i = 0; i < columnWriters.length; i++) {
      if (!row.isNullAt(i)) {
        consumer.startField(names[i], index + i);
        columnWriters[i].write(consumer, row, i);
        consumer.endField(names[i], index + i);
      }
    }
    consumer.endMessage();
  }

  /** A string in one heap segment in place, any other copied into a new array. */
  private static Binary stringBinary(StringData value) {
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

  /** The writer of a top-level column: primitives and strings straight from the row. */
  private static ColumnWriter columnWriterFor(LogicalType type, int position) {
    switch (type.getTypeRoot()) {
      case BOOLEAN:
        return (c, row, i) -> c.addBoolean(row.getBoolean(i));
      case TINYINT:
        return (c, row, i) -> c.addInteger(row.getByte(i));
      case SMALLINT:
        return (c, row, i) -> c.addInteger(row.getShort(i));
      case INTEGER:
      case DATE:
      case TIME_WITHOUT_TIME_ZONE:
        return (c, row, i) -> c.addInteger(row.getInt(i));
      case BIGINT:
        return (c, row, i) -> c.addLong(row.getLong(i));
      case FLOAT:
        return (c, row, i) -> c.addFloat(row.getFloat(i));
      case DOUBLE:
        return (c, row, i) -> c.addDouble(row.getDouble(i));
      case CHAR:
      case VARCHAR:
        return (c, row, i) -> c.addBinary(stringBinary(row.getString(i)));
      default:
        RowData.FieldGetter getter = RowData.createFieldGetter(type, position);
        FieldWriter writer = writerFor(type);
        return (c, row, i) -> writer.write(c, getter.getFieldOrNull(row));
    }
  }

  private static void writeFields(
      RecordConsumer consumer,
      RowData row,
      RowData.FieldGetter[] getters,
      FieldWriter[] writers,
      String[] names,
      int firstIndex) {
    for (int i = 0; i < getters.length; i++) {
      Object value = getters[i].getFieldOrNull(row);
      if (value != null) {
        consumer.startField(names[i], firstIndex + i);
        writers[i].write(consumer, value);
        consumer.endField(names[i], firstIndex + i);
      }
    }
  }

  private static FieldWriter writerFor(LogicalType type) {
    switch (type.getTypeRoot()) {
      case BOOLEAN:
        return (c, v) -> c.addBoolean((Boolean) v);
      case TINYINT:
        return (c, v) -> c.addInteger((Byte) v);
      case SMALLINT:
        return (c, v) -> c.addInteger((Short) v);
      case INTEGER:
      case DATE:
      case TIME_WITHOUT_TIME_ZONE:
        return (c, v) -> c.addInteger((Integer) v);
      case BIGINT:
        return (c, v) -> c.addLong((Long) v);
      case FLOAT:
        return (c, v) -> c.addFloat((Float) v);
      case DOUBLE:
        return (c, v) -> c.addDouble((Double) v);
      case CHAR:
      case VARCHAR:
        return (c, v) -> c.addBinary(stringBinary((StringData) v));
      case BINARY:
      case VARBINARY:
        return (c, v) -> c.addBinary(Binary.fromConstantByteArray((byte[]) v));
      case DECIMAL:
        return (c, v) ->
            c.addBinary(
                Binary.fromConstantByteArray(
                    ((DecimalData) v).toBigDecimal().unscaledValue().toByteArray()));
      case TIMESTAMP_WITHOUT_TIME_ZONE:
        return timestampWriter(((TimestampType) type).getPrecision());
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
        return timestampWriter(((LocalZonedTimestampType) type).getPrecision());
      case ARRAY:
        LogicalType elementType = ((ArrayType) type).getElementType();
        ArrayData.ElementGetter element = ArrayData.createElementGetter(elementType);
        FieldWriter elementWriter = writerFor(elementType);
        return (c, v) -> {
          ArrayData array = (ArrayData) v;
          c.startGroup();
          if (array.size() > 0) {
            c.startField("list", 0);
            for (int i = 0; i < array.size(); i++) {
              c.startGroup();
              Object item = element.getElementOrNull(array, i);
              if (item != null) {
                c.startField("element", 0);
                elementWriter.write(c, item);
                c.endField("element", 0);
              }
              c.endGroup();
            }
            c.endField("list", 0);
          }
          c.endGroup();
        };
      case MAP:
        MapType mapType = (MapType) type;
        ArrayData.ElementGetter key = ArrayData.createElementGetter(mapType.getKeyType());
        ArrayData.ElementGetter value = ArrayData.createElementGetter(mapType.getValueType());
        FieldWriter keyWriter = writerFor(mapType.getKeyType());
        FieldWriter valueWriter = writerFor(mapType.getValueType());
        return (c, v) -> {
          MapData map = (MapData) v;
          ArrayData keys = map.keyArray();
          ArrayData values = map.valueArray();
          c.startGroup();
          if (map.size() > 0) {
            c.startField("key_value", 0);
            for (int i = 0; i < map.size(); i++) {
              c.startGroup();
              c.startField("key", 0);
              keyWriter.write(c, key.getElementOrNull(keys, i));
              c.endField("key", 0);
              Object item = value.getElementOrNull(values, i);
              if (item != null) {
                c.startField("value", 1);
                valueWriter.write(c, item);
                c.endField("value", 1);
              }
              c.endGroup();
            }
            c.endField("key_value", 0);
          }
          c.endGroup();
        };
      case ROW:
        List<RowType.RowField> fields = ((RowType) type).getFields();
        RowData.FieldGetter[] getters = new RowData.FieldGetter[fields.size()];
        FieldWriter[] writers = new FieldWriter[fields.size()];
        String[] names = new String[fields.size()];
        for (int i = 0; i < fields.size(); i++) {
          getters[i] = RowData.createFieldGetter(fields.get(i).getType(), i);
          writers[i] = writerFor(fields.get(i).getType());
          names[i] = fields.get(i).getName();
        }
        return (c, v) -> {
          c.startGroup();
          writeFields(c, (RowData) v, getters, writers, names, 0);
          c.endGroup();
        };
      default:
        throw new IllegalArgumentException(
            "type " + type.asSummaryString() + " has no Parquet mapping");
    }
  }

  private static FieldWriter timestampWriter(int precision) {
    if (precision <= 3) {
      return (c, v) -> c.addLong(((TimestampData) v).getMillisecond());
    }
    return (c, v) -> {
      TimestampData ts = (TimestampData) v;
      c.addLong(ts.getMillisecond() * 1000 + ts.getNanoOfMillisecond() / 1000);
    };
  }
}
