package dev.mortar.logformat;

import org.apache.avro.Schema;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimeUnit;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Type.Repetition;
import org.apache.parquet.schema.Types;

/**
 * The Parquet schema parquet-avro derives from {@link AvroSchemas#of}, so Hudi's Avro-based Parquet
 * reader reads our files: strings as {@code BINARY (STRING)}, decimals as {@code BINARY (DECIMAL)},
 * timestamps as {@code INT64 (TIMESTAMP)}, lists as the 3-level {@code list/element} group, maps as
 * {@code key_value} groups with a required string key, rows as groups. A nullable Flink type is an
 * optional field, a NOT NULL one a required field.
 */
public final class ParquetSchemas {
  private ParquetSchemas() {}

  /**
   * The message type of records of {@code dataType}, after the meta fields if {@code avroSchema}
   * has them.
   */
  public static MessageType of(RowType dataType, Schema avroSchema, boolean metaFields) {
    Types.MessageTypeBuilder message = Types.buildMessage();
    if (metaFields) {
      for (String name : AvroSchemas.META_FIELDS) {
        message.addField(
            Types.optional(PrimitiveTypeName.BINARY)
                .as(LogicalTypeAnnotation.stringType())
                .named(name));
      }
    }
    for (RowType.RowField field : dataType.getFields()) {
      message.addField(parquetType(field.getType(), field.getName()));
    }
    return message.named(avroSchema.getName());
  }

  private static Type parquetType(LogicalType type, String name) {
    Repetition repetition = type.isNullable() ? Repetition.OPTIONAL : Repetition.REQUIRED;
    switch (type.getTypeRoot()) {
      case BOOLEAN:
        return Types.primitive(PrimitiveTypeName.BOOLEAN, repetition).named(name);
      case TINYINT:
      case SMALLINT:
      case INTEGER:
        return Types.primitive(PrimitiveTypeName.INT32, repetition).named(name);
      case BIGINT:
        return Types.primitive(PrimitiveTypeName.INT64, repetition).named(name);
      case FLOAT:
        return Types.primitive(PrimitiveTypeName.FLOAT, repetition).named(name);
      case DOUBLE:
        return Types.primitive(PrimitiveTypeName.DOUBLE, repetition).named(name);
      case CHAR:
      case VARCHAR:
        return Types.primitive(PrimitiveTypeName.BINARY, repetition)
            .as(LogicalTypeAnnotation.stringType())
            .named(name);
      case BINARY:
      case VARBINARY:
        return Types.primitive(PrimitiveTypeName.BINARY, repetition).named(name);
      case DECIMAL:
        DecimalType decimal = (DecimalType) type;
        return Types.primitive(PrimitiveTypeName.BINARY, repetition)
            .as(LogicalTypeAnnotation.decimalType(decimal.getScale(), decimal.getPrecision()))
            .named(name);
      case DATE:
        return Types.primitive(PrimitiveTypeName.INT32, repetition)
            .as(LogicalTypeAnnotation.dateType())
            .named(name);
      case TIME_WITHOUT_TIME_ZONE:
        return Types.primitive(PrimitiveTypeName.INT32, repetition)
            .as(LogicalTypeAnnotation.timeType(true, TimeUnit.MILLIS))
            .named(name);
      case TIMESTAMP_WITHOUT_TIME_ZONE:
        return timestamp(((TimestampType) type).getPrecision(), true, repetition, name);
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
        return timestamp(((LocalZonedTimestampType) type).getPrecision(), false, repetition, name);
      case ARRAY:
        LogicalType element = ((ArrayType) type).getElementType();
        return Types.buildGroup(repetition)
            .as(LogicalTypeAnnotation.listType())
            .addField(Types.repeatedGroup().addField(parquetType(element, "element")).named("list"))
            .named(name);
      case MAP:
        MapType map = (MapType) type;
        return Types.buildGroup(repetition)
            .as(LogicalTypeAnnotation.mapType())
            .addField(
                Types.repeatedGroup()
                    .addField(
                        Types.required(PrimitiveTypeName.BINARY)
                            .as(LogicalTypeAnnotation.stringType())
                            .named("key"))
                    .addField(parquetType(map.getValueType(), "value"))
                    .named("key_value"))
            .named(name);
      case ROW:
        return new GroupType(
            repetition,
            name,
            ((RowType) type)
                .getFields().stream()
                    .map(f -> parquetType(f.getType(), f.getName()))
                    .toArray(Type[]::new));
      default:
        throw new IllegalArgumentException(
            "field " + name + " of type " + type.asSummaryString() + " has no Parquet mapping");
    }
  }

  private static Type timestamp(int precision, boolean utc, Repetition repetition, String name) {
    TimeUnit unit = precision <= 3 ? TimeUnit.MILLIS : TimeUnit.MICROS;
    return Types.primitive(PrimitiveTypeName.INT64, repetition)
        .as(LogicalTypeAnnotation.timestampType(utc, unit))
        .named(name);
  }
}
