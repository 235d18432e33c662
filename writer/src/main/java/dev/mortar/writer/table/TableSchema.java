package dev.mortar.writer.table;

import java.util.List;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;

/**
 * The table's Avro schema without meta fields, as Hudi's Flink writer derives it from the row type
 * (Hudi's {@code AvroSchemaConverter}, record name {@code hoodie.<table>.<table>_record}); stored
 * in hoodie.properties as {@code hoodie.table.create.schema}. Nullable types become {@code ["null",
 * T]} with default null.
 */
final class TableSchema {
  private TableSchema() {}

  static Schema avroSchema(TableSettings settings) {
    String name = settings.tableName().replaceAll("[^A-Za-z0-9_]", "_");
    return record(settings.rowType(), "hoodie." + name + "." + name + "_record");
  }

  private static Schema record(RowType rowType, String fullName) {
    SchemaBuilder.FieldAssembler<Schema> fields = SchemaBuilder.record(fullName).fields();
    for (RowType.RowField field : rowType.getFields()) {
      Schema type = convert(field.getType(), fullName + "_" + field.getName());
      if (field.getType().isNullable()) {
        fields = fields.name(field.getName()).type(type).withDefault(null);
      } else {
        fields = fields.name(field.getName()).type(type).noDefault();
      }
    }
    return fields.endRecord();
  }

  private static Schema convert(LogicalType type, String name) {
    Schema schema = convertNotNull(type, name);
    return type.isNullable()
        ? Schema.createUnion(List.of(Schema.create(Schema.Type.NULL), schema))
        : schema;
  }

  private static Schema convertNotNull(LogicalType type, String name) {
    return switch (type.getTypeRoot()) {
      case BOOLEAN -> Schema.create(Schema.Type.BOOLEAN);
      case TINYINT, SMALLINT, INTEGER -> Schema.create(Schema.Type.INT);
      case BIGINT -> Schema.create(Schema.Type.LONG);
      case FLOAT -> Schema.create(Schema.Type.FLOAT);
      case DOUBLE -> Schema.create(Schema.Type.DOUBLE);
      case CHAR, VARCHAR -> Schema.create(Schema.Type.STRING);
      case BINARY, VARBINARY -> Schema.create(Schema.Type.BYTES);
      case DATE -> LogicalTypes.date().addToSchema(Schema.create(Schema.Type.INT));
      case TIME_WITHOUT_TIME_ZONE ->
          LogicalTypes.timeMillis().addToSchema(Schema.create(Schema.Type.INT));
      case TIMESTAMP_WITHOUT_TIME_ZONE -> timestamp(((TimestampType) type).getPrecision(), false);
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE ->
          timestamp(((LocalZonedTimestampType) type).getPrecision(), true);
      case DECIMAL -> decimal((DecimalType) type, name);
      case ARRAY -> Schema.createArray(convert(((ArrayType) type).getElementType(), name));
      case MAP -> Schema.createMap(convert(((MapType) type).getValueType(), name));
      case ROW -> record((RowType) type, name);
      default ->
          throw new IllegalArgumentException(
              "column type " + type + " has no Avro mapping in a Hudi table schema");
    };
  }

  private static Schema timestamp(int precision, boolean local) {
    Schema longSchema = Schema.create(Schema.Type.LONG);
    if (precision <= 3) {
      return (local ? LogicalTypes.localTimestampMillis() : LogicalTypes.timestampMillis())
          .addToSchema(longSchema);
    }
    return (local ? LogicalTypes.localTimestampMicros() : LogicalTypes.timestampMicros())
        .addToSchema(longSchema);
  }

  private static Schema decimal(DecimalType type, String name) {
    int size = minBytesForPrecision(type.getPrecision());
    Schema fixed = Schema.createFixed(name + ".fixed", null, null, size);
    return LogicalTypes.decimal(type.getPrecision(), type.getScale()).addToSchema(fixed);
  }

  /** Smallest byte count whose two's complement holds {@code precision} decimal digits. */
  private static int minBytesForPrecision(int precision) {
    int bytes = 1;
    while (Math.pow(2.0, 8 * bytes - 1) < Math.pow(10.0, precision)) {
      bytes++;
    }
    return bytes;
  }
}
