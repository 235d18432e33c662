package dev.mortar.logformat;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * The ordering value a delete carries, in the wrapper Hudi's {@code HoodieDeleteRecord.orderingVal}
 * union expects for the ordering field's type (shared/spec/hudi-format.md §9.3). Never null: a
 * delete without an ordering field carries {@link #natural()} = {@code IntWrapper{0}}, which Hudi
 * treats as "always deletes".
 *
 * <pre>
 *  union branch  wrapper                 factory
 *  1             BooleanWrapper          ofBoolean
 *  2             IntWrapper              ofInt, natural()
 *  3             LongWrapper             ofLong
 *  4             FloatWrapper            ofFloat
 *  5             DoubleWrapper           ofDouble
 *  6             BytesWrapper            ofBytes
 *  7             StringWrapper           ofString
 *  8             DateWrapper             ofDate (epoch day)
 *  9             DecimalWrapper          ofDecimal (decimal(30,15))
 *  10            TimeMicrosWrapper       ofTimeMicros
 *  11            TimestampMicrosWrapper  ofTimestampMicros
 * </pre>
 */
public final class OrderingValue {
  static final int BOOLEAN = 1;
  static final int INT = 2;
  static final int LONG = 3;
  static final int FLOAT = 4;
  static final int DOUBLE = 5;
  static final int BYTES = 6;
  static final int STRING = 7;
  static final int DATE = 8;
  static final int DECIMAL = 9;
  static final int TIME_MICROS = 10;
  static final int TIMESTAMP_MICROS = 11;

  /** Scale of Hudi's {@code DecimalWrapper} value, {@code decimal(30,15)}. */
  public static final int DECIMAL_WRAPPER_SCALE = 15;

  /** Wrapper names by union branch. */
  private static final String[] TYPE_NAMES = {
    null,
    "BooleanWrapper",
    "IntWrapper",
    "LongWrapper",
    "FloatWrapper",
    "DoubleWrapper",
    "BytesWrapper",
    "StringWrapper",
    "DateWrapper",
    "DecimalWrapper",
    "TimeMicrosWrapper",
    "TimestampMicrosWrapper"
  };

  private static final OrderingValue NATURAL = new OrderingValue(INT, 0, null);

  private final int branch;
  private final long bits;
  private final byte[] bytes;

  private OrderingValue(int branch, long bits, byte[] bytes) {
    this.branch = branch;
    this.bits = bits;
    this.bytes = bytes;
  }

  /** Hudi's default ordering value {@code IntWrapper{0}} (commit-time / natural order). */
  public static OrderingValue natural() {
    return NATURAL;
  }

  public static OrderingValue ofBoolean(boolean value) {
    return new OrderingValue(BOOLEAN, value ? 1 : 0, null);
  }

  public static OrderingValue ofInt(int value) {
    return new OrderingValue(INT, value, null);
  }

  public static OrderingValue ofLong(long value) {
    return new OrderingValue(LONG, value, null);
  }

  public static OrderingValue ofFloat(float value) {
    return new OrderingValue(FLOAT, Float.floatToRawIntBits(value), null);
  }

  public static OrderingValue ofDouble(double value) {
    return new OrderingValue(DOUBLE, Double.doubleToRawLongBits(value), null);
  }

  public static OrderingValue ofBytes(byte[] value) {
    return new OrderingValue(BYTES, 0, value.clone());
  }

  public static OrderingValue ofString(String value) {
    return new OrderingValue(STRING, 0, value.getBytes(StandardCharsets.UTF_8));
  }

  public static OrderingValue ofDate(int epochDay) {
    return new OrderingValue(DATE, epochDay, null);
  }

  /** Rescaled (HALF_UP) to Hudi's wrapper scale 15; at most 30 digits of precision. */
  public static OrderingValue ofDecimal(BigDecimal value) {
    BigDecimal rescaled = value.setScale(DECIMAL_WRAPPER_SCALE, RoundingMode.HALF_UP);
    if (rescaled.precision() > 30) {
      throw new IllegalArgumentException(
          "ordering value " + value + " needs more than the 30 digits of Hudi's DecimalWrapper");
    }
    return new OrderingValue(DECIMAL, 0, rescaled.unscaledValue().toByteArray());
  }

  public static OrderingValue ofTimeMicros(long microsOfDay) {
    return new OrderingValue(TIME_MICROS, microsOfDay, null);
  }

  public static OrderingValue ofTimestampMicros(long epochMicros) {
    return new OrderingValue(TIMESTAMP_MICROS, epochMicros, null);
  }

  /**
   * Whether this is {@link #natural()}, {@code IntWrapper{0}}: Hudi's default ordering value, which
   * a delete without an ordering field carries and which always deletes. An INT ordering field's
   * value 0 looks the same, in Hudi as here.
   */
  public boolean isNatural() {
    return branch == INT && bits == 0;
  }

  /** The value of a BooleanWrapper (0 or 1), IntWrapper, LongWrapper, DateWrapper or *Micros. */
  public long longValue() {
    switch (branch) {
      case BOOLEAN:
      case INT:
      case LONG:
      case DATE:
      case TIME_MICROS:
      case TIMESTAMP_MICROS:
        return bits;
      default:
        throw new IllegalStateException(typeName() + " has no long value");
    }
  }

  /** The value of a FloatWrapper or DoubleWrapper. */
  public double doubleValue() {
    switch (branch) {
      case FLOAT:
        return Float.intBitsToFloat((int) bits);
      case DOUBLE:
        return Double.longBitsToDouble(bits);
      default:
        throw new IllegalStateException(typeName() + " has no double value");
    }
  }

  /** Hudi's name of the wrapper, e.g. {@code LongWrapper}. */
  public String typeName() {
    return TYPE_NAMES[branch];
  }

  /** Writes the union branch index and the wrapper record. */
  void encodeAvro(BlockBuffer out) {
    out.writeAvroLong(branch);
    switch (branch) {
      case BOOLEAN:
        out.writeByte((int) bits);
        break;
      case FLOAT:
        out.writeAvroFloat(Float.intBitsToFloat((int) bits));
        break;
      case DOUBLE:
        out.writeAvroDouble(Double.longBitsToDouble(bits));
        break;
      case BYTES:
      case STRING:
      case DECIMAL:
        out.writeAvroBytes(bytes);
        break;
      default: // INT, LONG, DATE, TIME_MICROS, TIMESTAMP_MICROS: zig-zag varint
        out.writeAvroLong(bits);
    }
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof OrderingValue)) {
      return false;
    }
    OrderingValue other = (OrderingValue) o;
    return branch == other.branch && bits == other.bits && Arrays.equals(bytes, other.bytes);
  }

  @Override
  public int hashCode() {
    return Objects.hash(branch, bits, Arrays.hashCode(bytes));
  }

  @Override
  public String toString() {
    return "OrderingValue{branch="
        + branch
        + ", bits="
        + bits
        + ", bytes="
        + Arrays.toString(bytes)
        + '}';
  }
}
