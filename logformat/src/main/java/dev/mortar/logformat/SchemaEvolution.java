package dev.mortar.logformat;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.avro.Schema;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.RowType;

/**
 * The changes of a table's schema Mortar follows, the ones Hudi's readers follow without a schema
 * history: nullable columns added after the last one, and top-level columns widened, their
 * nullability unchanged: the way Avro promotes a written value to a reader's type (INT to BIGINT,
 * FLOAT or DOUBLE; BIGINT to FLOAT or DOUBLE; FLOAT to DOUBLE), a number to a STRING (its Java
 * {@code toString}, as Hudi's readers give it), or a DECIMAL to one of more digits and the same
 * scale. A file written before such changes holds the table's first columns, some of them of their
 * older, narrower types; its readers widen those values ({@link #widen}) and give the added columns
 * null.
 */
public final class SchemaEvolution {
  private SchemaEvolution() {}

  /**
   * Whether data of {@code written} reads as {@code read}: {@code read} has {@code written}'s
   * fields first, by name, each of the same type or of one it is promoted to, and only nullable
   * fields after them.
   */
  public static boolean readableAs(RowType written, RowType read) {
    if (written.getFieldCount() > read.getFieldCount()) {
      return false;
    }
    for (int i = 0; i < read.getFieldCount(); i++) {
      RowType.RowField field = read.getFields().get(i);
      if (i >= written.getFieldCount()) {
        if (!field.getType().isNullable()) {
          return false;
        }
      } else {
        RowType.RowField writtenField = written.getFields().get(i);
        if (!writtenField.getName().equals(field.getName())
            || !(writtenField.getType().equals(field.getType())
                || isPromotion(writtenField.getType(), field.getType()))) {
          return false;
        }
      }
    }
    return true;
  }

  /** Whether values of {@code from} read as {@code to}, widened ({@link SchemaEvolution}). */
  public static boolean isPromotion(LogicalType from, LogicalType to) {
    if (from.isNullable() != to.isNullable()) {
      return false;
    }
    LogicalTypeRoot target = to.getTypeRoot();
    boolean toString = target == LogicalTypeRoot.VARCHAR;
    return switch (from.getTypeRoot()) {
      case INTEGER ->
          target == LogicalTypeRoot.BIGINT
              || target == LogicalTypeRoot.FLOAT
              || target == LogicalTypeRoot.DOUBLE
              || toString;
      case BIGINT ->
          target == LogicalTypeRoot.FLOAT || target == LogicalTypeRoot.DOUBLE || toString;
      case FLOAT -> target == LogicalTypeRoot.DOUBLE || toString;
      case DOUBLE -> toString;
      case DECIMAL ->
          target == LogicalTypeRoot.DECIMAL && holdsEvery((DecimalType) from, (DecimalType) to);
      default -> false;
    };
  }

  /**
   * Whether {@code to} is a decimal of more digits than {@code from} and the same scale: its values
   * read as they are. A wider scale is not followed: Hudi 1.1's readers read the unscaled digits of
   * a file written with a smaller scale at the new one, which changes the number.
   */
  private static boolean holdsEvery(DecimalType from, DecimalType to) {
    return to.getScale() == from.getScale() && to.getPrecision() > from.getPrecision();
  }

  /**
   * The row type that {@code found}, a schema Mortar writes ({@link AvroSchemas#of} under {@code
   * found}'s record name, with or without the meta fields), was written from, if data of it reads
   * as {@code read}: {@code read}'s first fields, each of {@code read}'s type or of the narrower
   * one {@code found} holds. Empty for any other schema.
   */
  public static Optional<RowType> writtenType(RowType read, Schema found, boolean metaFields) {
    RowType mapped;
    try {
      mapped = AvroRowTypes.of(found);
    } catch (IllegalArgumentException notMortars) {
      return Optional.empty();
    }
    if (mapped.getFieldCount() > read.getFieldCount()) {
      return Optional.empty();
    }
    List<RowType.RowField> fields = new ArrayList<>();
    for (int i = 0; i < mapped.getFieldCount(); i++) {
      RowType.RowField readField = read.getFields().get(i);
      LogicalType foundType = mapped.getTypeAt(i);
      boolean narrower = isPromotion(foundType, readField.getType());
      fields.add(
          new RowType.RowField(readField.getName(), narrower ? foundType : readField.getType()));
    }
    RowType written = new RowType(read.isNullable(), fields);
    return readableAs(written, read)
            && AvroSchemas.of(written, found.getFullName(), metaFields).equals(found)
        ? Optional.of(written)
        : Optional.empty();
  }

  /**
   * A FLOAT value read as DOUBLE, as Hudi's readers widen it: through its shortest decimal form, so
   * {@code 0.1f} reads as {@code 0.1} (Java's widening gives {@code 0.10000000149011612}). The
   * other promotions are Java's widening, in Hudi's readers as here.
   */
  public static double widen(float value) {
    return Double.parseDouble(Float.toString(value));
  }
}
