package dev.mortar.logformat;

import org.apache.avro.Schema;
import org.apache.flink.table.types.logical.RowType;

/**
 * The one change of a table's schema Mortar follows: nullable columns added after its last one.
 * Files written before such a change hold the first columns of the table's row type only; their
 * readers give the added columns null, as Hudi's readers do.
 */
public final class AddedColumns {
  private AddedColumns() {}

  /**
   * Whether {@code schema} is the Avro schema Mortar writes ({@link AvroSchemas#of}, with or
   * without the meta fields, under {@code schema}'s record name) for the first {@code count} fields
   * of {@code type}, and data of those fields reads as {@code type}.
   */
  public static boolean isSchemaOfFirstFields(
      RowType type, int count, Schema schema, boolean metaFields) {
    return readableFrom(type, count)
        && AvroSchemas.of(firstFields(type, count), schema.getFullName(), metaFields)
            .equals(schema);
  }

  private static RowType firstFields(RowType type, int count) {
    return new RowType(type.isNullable(), type.getFields().subList(0, count));
  }

  /**
   * Whether data of {@code type}'s first {@code count} fields reads as {@code type}: {@code count}
   * is at most its arity and every field from {@code count} on is nullable.
   */
  public static boolean readableFrom(RowType type, int count) {
    if (count < 0 || count > type.getFieldCount()) {
      return false;
    }
    for (int i = count; i < type.getFieldCount(); i++) {
      if (!type.getTypeAt(i).isNullable()) {
        return false;
      }
    }
    return true;
  }
}
