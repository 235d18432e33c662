package dev.mortar.logformat;

import java.util.ArrayList;
import java.util.List;
import org.apache.avro.LogicalType;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.BooleanType;
import org.apache.flink.table.types.logical.DateType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.FloatType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimeType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.VarBinaryType;
import org.apache.flink.table.types.logical.VarCharType;

/**
 * The Flink row type of a table's Avro schema: the inverse of {@link AvroSchemas#of}, so that
 * {@code AvroSchemas.of(AvroRowTypes.of(s), s.getFullName(), false)} equals {@code s} for every
 * schema Mortar writes. Where {@link AvroSchemas} maps several Flink types to one Avro type, the
 * widest comes back: int is INT, string is STRING, bytes is BYTES, time-millis is TIME(3),
 * timestamp-millis and -micros are TIMESTAMP(3) and TIMESTAMP(6). The union {@code ["null", T]} is
 * a nullable T, any other type is NOT NULL. Hudi's meta fields, when the schema has them, are left
 * out. Any other Avro type fails naming the field.
 */
public final class AvroRowTypes {
  private AvroRowTypes() {}

  public static RowType of(Schema record) {
    if (record.getType() != Schema.Type.RECORD) {
      throw new IllegalArgumentException(
          "the table schema is a " + record.getType() + ", expected a record: " + record);
    }
    return row(record, record.getFullName(), false);
  }

  private static RowType row(Schema record, String path, boolean nullable) {
    List<RowType.RowField> fields = new ArrayList<>();
    for (Schema.Field field : record.getFields()) {
      if (!AvroSchemas.META_FIELDS.contains(field.name())) {
        String fieldPath = path + "." + field.name();
        fields.add(new RowType.RowField(field.name(), nullableType(field.schema(), fieldPath)));
      }
    }
    return new RowType(nullable, fields);
  }

  private static org.apache.flink.table.types.logical.LogicalType nullableType(
      Schema schema, String path) {
    if (schema.getType() != Schema.Type.UNION) {
      return type(schema, path, false);
    }
    List<Schema> types = schema.getTypes();
    if (types.size() != 2 || types.get(0).getType() != Schema.Type.NULL) {
      throw unsupported(schema, path, "the only union is [\"null\", T]");
    }
    return type(types.get(1), path, true);
  }

  private static org.apache.flink.table.types.logical.LogicalType type(
      Schema schema, String path, boolean nullable) {
    LogicalType logical = schema.getLogicalType();
    switch (schema.getType()) {
      case BOOLEAN:
        return new BooleanType(nullable);
      case INT:
        if (logical == null) {
          return new IntType(nullable);
        } else if (logical instanceof LogicalTypes.Date) {
          return new DateType(nullable);
        } else if (logical instanceof LogicalTypes.TimeMillis) {
          return new TimeType(nullable, 3);
        }
        throw unsupported(schema, path, "no Flink type for int " + logical.getName());
      case LONG:
        if (logical == null) {
          return new BigIntType(nullable);
        } else if (logical instanceof LogicalTypes.TimestampMillis) {
          return new TimestampType(nullable, 3);
        } else if (logical instanceof LogicalTypes.TimestampMicros) {
          return new TimestampType(nullable, 6);
        } else if (logical instanceof LogicalTypes.LocalTimestampMillis) {
          return new LocalZonedTimestampType(nullable, 3);
        } else if (logical instanceof LogicalTypes.LocalTimestampMicros) {
          return new LocalZonedTimestampType(nullable, 6);
        }
        throw unsupported(schema, path, "no Flink type for long " + logical.getName());
      case FLOAT:
        return new FloatType(nullable);
      case DOUBLE:
        return new DoubleType(nullable);
      case STRING:
        return new VarCharType(nullable, VarCharType.MAX_LENGTH);
      case BYTES:
        if (logical == null) {
          return new VarBinaryType(nullable, VarBinaryType.MAX_LENGTH);
        } else if (logical instanceof LogicalTypes.Decimal decimal) {
          return new DecimalType(nullable, decimal.getPrecision(), decimal.getScale());
        }
        throw unsupported(schema, path, "no Flink type for bytes " + logical.getName());
      case ARRAY:
        return new ArrayType(nullable, nullableType(schema.getElementType(), path));
      case MAP:
        return new MapType(
            nullable,
            new VarCharType(false, VarCharType.MAX_LENGTH),
            nullableType(schema.getValueType(), path));
      case RECORD:
        return row(schema, path, nullable);
      default:
        throw unsupported(schema, path, "Mortar writes no such type");
    }
  }

  private static IllegalArgumentException unsupported(Schema schema, String path, String why) {
    return new IllegalArgumentException(
        "field " + path + " of the table schema has type " + schema + ", not supported: " + why);
  }
}
