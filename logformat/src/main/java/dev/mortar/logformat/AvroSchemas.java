package dev.mortar.logformat;

import java.util.ArrayList;
import java.util.List;
import org.apache.avro.JsonProperties;
import org.apache.avro.LogicalType;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;

/**
 * Avro schemas of log records, derived from a Flink {@link RowType} the way Hudi's Flink writer
 * does (hudi-flink {@code AvroSchemaConverter}), with Hudi's five meta fields prepended when asked
 * (shared/spec/hudi-format.md §10).
 *
 * <table>
 *   <tr><th>Flink</th><th>Avro</th></tr>
 *   <tr><td>BOOLEAN</td><td>boolean</td></tr>
 *   <tr><td>TINYINT, SMALLINT, INT</td><td>int</td></tr>
 *   <tr><td>BIGINT</td><td>long</td></tr>
 *   <tr><td>FLOAT, DOUBLE</td><td>float, double</td></tr>
 *   <tr><td>CHAR, VARCHAR</td><td>string</td></tr>
 *   <tr><td>BINARY, VARBINARY</td><td>bytes</td></tr>
 *   <tr><td>DECIMAL(p, s)</td><td>bytes, logical decimal(p, s) (two's complement, big-endian)</td></tr>
 *   <tr><td>DATE</td><td>int, logical date</td></tr>
 *   <tr><td>TIME</td><td>int, logical time-millis</td></tr>
 *   <tr><td>TIMESTAMP(0..3), (4..6)</td><td>long, timestamp-millis, timestamp-micros</td></tr>
 *   <tr><td>TIMESTAMP_LTZ(0..3), (4..6)</td><td>long, local-timestamp-millis, -micros</td></tr>
 *   <tr><td>ARRAY&lt;T&gt;</td><td>array</td></tr>
 *   <tr><td>MAP&lt;STRING, T&gt;</td><td>map (Avro map keys are strings)</td></tr>
 *   <tr><td>ROW</td><td>record named {@code <parent>_<field>}</td></tr>
 * </table>
 *
 * A nullable Flink type becomes the union {@code ["null", T]} with default null.
 */
public final class AvroSchemas {
  /** Hudi's meta field names, in order ({@code HoodieRecord.HoodieMetadataField}). */
  public static final List<String> META_FIELDS =
      List.of(
          "_hoodie_commit_time",
          "_hoodie_commit_seqno",
          "_hoodie_record_key",
          "_hoodie_partition_path",
          "_hoodie_file_name");

  private AvroSchemas() {}

  /**
   * The record schema of {@code rowType}. {@code recordName} is a full name; the part before the
   * last dot becomes the namespace.
   */
  public static Schema of(RowType rowType, String recordName, boolean withMetaFields) {
    int dot = recordName.lastIndexOf('.');
    String namespace = dot < 0 ? null : recordName.substring(0, dot);
    String name = recordName.substring(dot + 1);
    List<Schema.Field> fields = new ArrayList<>();
    if (withMetaFields) {
      Schema optionalString =
          Schema.createUnion(Schema.create(Schema.Type.NULL), Schema.create(Schema.Type.STRING));
      for (String metaField : META_FIELDS) {
        fields.add(new Schema.Field(metaField, optionalString, "", JsonProperties.NULL_VALUE));
      }
    }
    fields.addAll(dataFields(rowType, namespace, name));
    return Schema.createRecord(name, null, namespace, false, fields);
  }

  private static List<Schema.Field> dataFields(RowType rowType, String namespace, String name) {
    List<Schema.Field> fields = new ArrayList<>();
    for (RowType.RowField field : rowType.getFields()) {
      org.apache.flink.table.types.logical.LogicalType type = field.getType();
      Schema schema = nullable(type, of(type, namespace, name + "_" + field.getName()));
      Object defaultValue = type.isNullable() ? JsonProperties.NULL_VALUE : null;
      fields.add(new Schema.Field(field.getName(), schema, null, defaultValue));
    }
    return fields;
  }

  private static Schema nullable(org.apache.flink.table.types.logical.LogicalType type, Schema s) {
    return type.isNullable() ? Schema.createUnion(Schema.create(Schema.Type.NULL), s) : s;
  }

  private static Schema of(
      org.apache.flink.table.types.logical.LogicalType type, String namespace, String path) {
    LogicalTypeRoot root = type.getTypeRoot();
    switch (root) {
      case BOOLEAN:
        return Schema.create(Schema.Type.BOOLEAN);
      case TINYINT:
      case SMALLINT:
      case INTEGER:
        return Schema.create(Schema.Type.INT);
      case BIGINT:
        return Schema.create(Schema.Type.LONG);
      case FLOAT:
        return Schema.create(Schema.Type.FLOAT);
      case DOUBLE:
        return Schema.create(Schema.Type.DOUBLE);
      case CHAR:
      case VARCHAR:
        return Schema.create(Schema.Type.STRING);
      case BINARY:
      case VARBINARY:
        return Schema.create(Schema.Type.BYTES);
      case DECIMAL:
        DecimalType decimal = (DecimalType) type;
        return LogicalTypes.decimal(decimal.getPrecision(), decimal.getScale())
            .addToSchema(Schema.create(Schema.Type.BYTES));
      case DATE:
        return LogicalTypes.date().addToSchema(Schema.create(Schema.Type.INT));
      case TIME_WITHOUT_TIME_ZONE:
        return LogicalTypes.timeMillis().addToSchema(Schema.create(Schema.Type.INT));
      case TIMESTAMP_WITHOUT_TIME_ZONE:
        int precision = ((TimestampType) type).getPrecision();
        return timestamp(
            precision, path, LogicalTypes.timestampMillis(), LogicalTypes.timestampMicros());
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
        int ltzPrecision = ((LocalZonedTimestampType) type).getPrecision();
        return timestamp(
            ltzPrecision,
            path,
            LogicalTypes.localTimestampMillis(),
            LogicalTypes.localTimestampMicros());
      case ARRAY:
        org.apache.flink.table.types.logical.LogicalType element =
            ((ArrayType) type).getElementType();
        return Schema.createArray(nullable(element, of(element, namespace, path)));
      case MAP:
        MapType map = (MapType) type;
        LogicalTypeRoot keyRoot = map.getKeyType().getTypeRoot();
        if (keyRoot != LogicalTypeRoot.VARCHAR && keyRoot != LogicalTypeRoot.CHAR) {
          throw unsupported(type, path, "Avro map keys must be strings (CHAR/VARCHAR)");
        }
        org.apache.flink.table.types.logical.LogicalType value = map.getValueType();
        return Schema.createMap(nullable(value, of(value, namespace, path)));
      case ROW:
        RowType row = (RowType) type;
        return Schema.createRecord(path, null, namespace, false, dataFields(row, namespace, path));
      default:
        throw unsupported(type, path, "no Avro mapping");
    }
  }

  private static Schema timestamp(
      int precision, String path, LogicalType millis, LogicalType micros) {
    if (precision > 6) {
      throw new IllegalArgumentException(
          "field "
              + path
              + ": timestamp precision "
              + precision
              + " is not supported; Avro logical types hold at most micros (precision 6)");
    }
    return (precision <= 3 ? millis : micros).addToSchema(Schema.create(Schema.Type.LONG));
  }

  private static IllegalArgumentException unsupported(
      org.apache.flink.table.types.logical.LogicalType type, String path, String why) {
    return new IllegalArgumentException(
        "field " + path + " of type " + type.asSummaryString() + " is not supported: " + why);
  }
}
