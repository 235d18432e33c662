package dev.mortar.writer.input;

import java.io.Serializable;
import java.time.LocalDate;
import javax.annotation.Nullable;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalType;

/**
 * Renders one record key or partition field of a row as the string Hudi's Avro key generators
 * produce for it (the Avro value's {@code toString}; a DATE as {@code yyyy-MM-dd}). Only types with
 * an unambiguous rendering are accepted; {@link #check} names the others at job build.
 */
public final class FieldRenderer implements Serializable {
  private static final long serialVersionUID = 1L;

  private final int position;
  private final LogicalType type;

  FieldRenderer(int position, LogicalType type) {
    check("field #" + position, type);
    this.position = position;
    this.type = type;
  }

  /** Fails naming the field when its type cannot be a record key or partition field. */
  static void check(String field, LogicalType type) {
    switch (type.getTypeRoot()) {
      case CHAR, VARCHAR, BOOLEAN, TINYINT, SMALLINT, INTEGER, BIGINT, DECIMAL, DATE -> {}
      default ->
          throw new IllegalArgumentException(
              "field '"
                  + field
                  + "' has type "
                  + type
                  + "; record key and partition fields must be CHAR, VARCHAR, BOOLEAN, an integer"
                  + " type, DECIMAL or DATE");
    }
  }

  public int position() {
    return position;
  }

  public LogicalType type() {
    return type;
  }

  /** The rendered value, or null when the field is null. */
  @Nullable
  public String render(RowData row) {
    if (row.isNullAt(position)) {
      return null;
    }
    return switch (type.getTypeRoot()) {
      case CHAR, VARCHAR -> row.getString(position).toString();
      case BOOLEAN -> Boolean.toString(row.getBoolean(position));
      case TINYINT -> Byte.toString(row.getByte(position));
      case SMALLINT -> Short.toString(row.getShort(position));
      case INTEGER -> Integer.toString(row.getInt(position));
      case BIGINT -> Long.toString(row.getLong(position));
      case DECIMAL -> {
        DecimalType decimal = (DecimalType) type;
        yield row.getDecimal(position, decimal.getPrecision(), decimal.getScale())
            .toBigDecimal()
            .toString();
      }
      case DATE -> LocalDate.ofEpochDay(row.getInt(position)).toString();
      default -> throw new IllegalStateException("unchecked type " + type);
    };
  }
}
