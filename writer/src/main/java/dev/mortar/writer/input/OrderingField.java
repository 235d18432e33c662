package dev.mortar.writer.input;

import dev.mortar.logformat.OrderingValue;
import dev.mortar.writer.options.WriterOptions;
import java.io.Serializable;
import javax.annotation.Nullable;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;

/**
 * The ordering field of a row, seen two ways: as a {@code long} that sorts like the value (what the
 * write buffer de-duplicates by) and as the {@link OrderingValue} a delete record carries in the
 * Avro type Hudi compares it with. A null value, like no ordering field at all, is Hudi's natural
 * ordering value 0.
 *
 * <p>Mapping to {@code long}: integer types and DATE as they are; TIMESTAMP(p) as epoch millis for
 * p &le; 3, micros above (the Avro logical type of the column); DOUBLE through its IEEE bits with
 * the magnitude bits flipped for negative values, which sorts like the double.
 */
public final class OrderingField implements Serializable {
  private static final long serialVersionUID = 1L;

  /** Ordering when the table has no ordering field: every record 0, the later arrival wins. */
  public static final OrderingField NONE = new OrderingField(-1, null);

  private final int position;
  @Nullable private final LogicalType type;

  private OrderingField(int position, @Nullable LogicalType type) {
    this.position = position;
    this.type = type;
  }

  /** The ordering field {@code name} of {@code rowType}, or {@link #NONE} when name is null. */
  public static OrderingField of(RowType rowType, @Nullable String name) {
    if (name == null) {
      return NONE;
    }
    int position = rowType.getFieldIndex(name);
    if (position < 0) {
      throw new IllegalArgumentException(
          WriterOptions.ORDERING_FIELD.key()
              + " '"
              + name
              + "' is not a column; columns are "
              + rowType.getFieldNames());
    }
    LogicalType type = rowType.getTypeAt(position);
    switch (type.getTypeRoot()) {
      case TINYINT, SMALLINT, INTEGER, BIGINT, DATE, DOUBLE -> {}
      case TIMESTAMP_WITHOUT_TIME_ZONE, TIMESTAMP_WITH_LOCAL_TIME_ZONE -> {
        if (precision(type) > 6) {
          throw wrongType(name, type, "timestamps need precision <= 6");
        }
      }
      default ->
          throw wrongType(
              name, type, "it must be TINYINT, SMALLINT, INT, BIGINT, DATE, TIMESTAMP or DOUBLE");
    }
    return new OrderingField(position, type);
  }

  private static IllegalArgumentException wrongType(String name, LogicalType type, String rule) {
    return new IllegalArgumentException(
        WriterOptions.ORDERING_FIELD.key() + " '" + name + "' has type " + type + "; " + rule);
  }

  /** The order-preserving long of the row's ordering value (0 for none or null). */
  public long toLong(RowData row) {
    if (type == null || row.isNullAt(position)) {
      return 0L;
    }
    return switch (type.getTypeRoot()) {
      case TINYINT -> row.getByte(position);
      case SMALLINT -> row.getShort(position);
      case INTEGER, DATE -> row.getInt(position);
      case BIGINT -> row.getLong(position);
      case DOUBLE -> sortableBits(row.getDouble(position));
      case TIMESTAMP_WITHOUT_TIME_ZONE, TIMESTAMP_WITH_LOCAL_TIME_ZONE -> {
        var timestamp = row.getTimestamp(position, precision(type));
        yield precision(type) <= 3
            ? timestamp.getMillisecond()
            : Math.addExact(
                Math.multiplyExact(timestamp.getMillisecond(), 1000L),
                timestamp.getNanoOfMillisecond() / 1000);
      }
      default -> throw new IllegalStateException("unchecked type " + type);
    };
  }

  /** The value a delete record carries for an ordering long made by {@link #toLong}. */
  public OrderingValue toOrderingValue(long ordering) {
    if (type == null) {
      return OrderingValue.natural();
    }
    return switch (type.getTypeRoot()) {
      case TINYINT, SMALLINT, INTEGER, DATE -> OrderingValue.ofInt((int) ordering);
      case DOUBLE -> OrderingValue.ofDouble(Double.longBitsToDouble(sortableBits(ordering)));
      default -> OrderingValue.ofLong(ordering);
    };
  }

  /**
   * The order-preserving long of a delete's ordering value, read from a log file: the inverse of
   * {@link #toOrderingValue}.
   *
   * @throws IllegalArgumentException when the value's wrapper is not the one this field's type
   *     gives (a delete written for another ordering field)
   */
  public long toLong(OrderingValue value) {
    String expected = toOrderingValue(0).typeName();
    if (!value.typeName().equals(expected)) {
      throw new IllegalArgumentException(
          "a delete's ordering value is a "
              + value.typeName()
              + ", but the ordering field "
              + (type == null ? "(none)" : "of type " + type)
              + " gives a "
              + expected);
    }
    if (type == null) {
      return 0L;
    }
    return type.getTypeRoot() == LogicalTypeRoot.DOUBLE
        ? sortableBits(value.doubleValue())
        : value.longValue();
  }

  /** Involution between IEEE double bits and a long that sorts like the double. */
  private static long sortableBits(double value) {
    return sortableBits(Double.doubleToLongBits(value));
  }

  private static long sortableBits(long bits) {
    return bits ^ ((bits >> 63) & Long.MAX_VALUE);
  }

  private static int precision(LogicalType type) {
    return type instanceof TimestampType timestamp
        ? timestamp.getPrecision()
        : ((LocalZonedTimestampType) type).getPrecision();
  }
}
