package dev.mortar.logformat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.RowType;

/**
 * The reference encoding: a {@link GenericRecord} built from the row, written with Avro's own
 * {@link GenericDatumWriter}. Uses {@link NormalForm#expected} for the value mapping.
 */
public final class AvroReference {
  private AvroReference() {}

  static byte[] encode(Schema schema, RowType rowType, RowData row) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(bytes, null);
    new GenericDatumWriter<GenericRecord>(schema).write(record(schema, rowType, row), encoder);
    encoder.flush();
    return bytes.toByteArray();
  }

  /** {@code row} as a record of {@code schema}, whose fields are those of {@code rowType}. */
  public static GenericRecord record(Schema schema, RowType rowType, RowData row) {
    GenericRecord record = new GenericData.Record(schema);
    for (int i = 0; i < rowType.getFieldCount(); i++) {
      LogicalType type = rowType.getTypeAt(i);
      Object value = RowData.createFieldGetter(type, i).getFieldOrNull(row);
      record.put(i, avro(nonNull(schema.getFields().get(i).schema()), type, value));
    }
    return record;
  }

  private static Schema nonNull(Schema schema) {
    return schema.getType() == Schema.Type.UNION ? schema.getTypes().get(1) : schema;
  }

  private static Object avro(Schema schema, LogicalType type, Object value) {
    if (value == null) {
      return null;
    }
    switch (type.getTypeRoot()) {
      case BINARY:
      case VARBINARY:
        return ByteBuffer.wrap((byte[]) value);
      case DECIMAL:
        return ByteBuffer.wrap(
            ((java.math.BigDecimal) NormalForm.expected(type, value))
                .unscaledValue()
                .toByteArray());
      case ARRAY:
        LogicalType elementType = ((ArrayType) type).getElementType();
        ArrayData array = (ArrayData) value;
        ArrayData.ElementGetter getter = ArrayData.createElementGetter(elementType);
        List<Object> list = new ArrayList<>();
        for (int i = 0; i < array.size(); i++) {
          list.add(
              avro(
                  nonNull(schema.getElementType()),
                  elementType,
                  getter.getElementOrNull(array, i)));
        }
        return list;
      case MAP:
        MapType mapType = (MapType) type;
        MapData map = (MapData) value;
        ArrayData.ElementGetter values = ArrayData.createElementGetter(mapType.getValueType());
        Map<String, Object> avroMap = new LinkedHashMap<>();
        for (int i = 0; i < map.size(); i++) {
          avroMap.put(
              map.keyArray().getString(i).toString(),
              avro(
                  nonNull(schema.getValueType()),
                  mapType.getValueType(),
                  values.getElementOrNull(map.valueArray(), i)));
        }
        return avroMap;
      case ROW:
        return record(schema, (RowType) type, (RowData) value);
      default:
        return NormalForm.expected(type, value); // strings, numbers, epoch days/millis/micros
    }
  }
}
