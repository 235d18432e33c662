package dev.mortar.testing;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.BinaryType;
import org.apache.flink.table.types.logical.BooleanType;
import org.apache.flink.table.types.logical.CharType;
import org.apache.flink.table.types.logical.DateType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.FloatType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.SmallIntType;
import org.apache.flink.table.types.logical.TimeType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.TinyIntType;
import org.apache.flink.table.types.logical.VarBinaryType;
import org.apache.flink.table.types.logical.VarCharType;

/**
 * Random row types and random rows of them, for the randomized tests of every module. Everything
 * follows from the seed.
 *
 * <p>The types are the 24 kinds below, with random parameters and random nullability: BOOLEAN,
 * TINYINT, SMALLINT, INT, BIGINT, FLOAT, DOUBLE, compact (precision up to 18) and wide DECIMAL,
 * CHAR, VARCHAR, STRING, BINARY, VARBINARY, BYTES, DATE, TIME, compact (precision up to 3) and wide
 * TIMESTAMP and TIMESTAMP_LTZ, then ARRAY, MAP and ROW, nested up to two levels. Two families:
 *
 * <ul>
 *   <li>{@link #rowType}: any Flink row, as the shuffle carries it; map keys of any type.
 *   <li>{@link #tableRowType} and {@link #tableRowTypeOfEveryKind}: a Hudi table's row, a non-null
 *       BIGINT {@code id} first (the key {@link #tableRow} sets), map keys CHAR or VARCHAR (Avro
 *       maps are keyed by strings).
 * </ul>
 *
 * <p>Values are null in about one position in six wherever the type allows it. Strings draw from
 * one alphabet each (ASCII, Latin-1, CJK, 4-byte emoji, quotes and escapes, or all of them mixed),
 * and are often short enough to sit inline in a {@code BinaryRowData} (up to 7 bytes); {@link
 * #allowHugeStrings} makes some 1 MB long. FLOAT is NaN now and then; timestamps carry nanoseconds
 * below their precision, which a writer must drop.
 */
public class RandomRows {
  private static final String[] ALPHABETS = {
    "abcXYZ019", "äöüßé", "中文字符", "😀🚀𝄞", " \t\"\\", "aZ7 éß€中文😀𝄞"
  };
  private static final int MAX_DEPTH = 2;
  private static final int HUGE_STRING_CODE_POINTS = 1 << 20;

  /** Number of type kinds {@link #type} knows; the last three nest. */
  private static final int KINDS = 24;

  private static final int NESTED_KINDS = 3;

  /** The kinds CHAR, VARCHAR and STRING, in this order. */
  private static final int FIRST_STRING_KIND = 9;

  private static final int STRING_KINDS = 3;

  private static final int MAX_COMPACT_DECIMAL_PRECISION = 18;
  private static final int MAX_COMPACT_TIMESTAMP_PRECISION = 3;

  private final Random random;
  private int hugeStrings;

  public RandomRows(long seed) {
    this.random = new Random(seed);
  }

  /** The source every value is drawn from, for helpers that build on these rows. */
  protected final Random random() {
    return random;
  }

  /**
   * Any Flink row type: every kind at least once, plus up to {@code maxExtra} random fields, in
   * random order.
   */
  public RowType rowType(int maxExtra) {
    List<LogicalType> types = oneOfEveryKind(false);
    int extra = random.nextInt(maxExtra + 1);
    for (int i = 0; i < extra; i++) {
      types.add(randomType(0, false));
    }
    Collections.shuffle(types, random);
    return rowOf(types);
  }

  /** A Hudi table's row type: {@code id BIGINT NOT NULL}, then {@code fields} random fields. */
  public RowType tableRowType(int fields) {
    List<LogicalType> types = new ArrayList<>();
    for (int i = 0; i < fields; i++) {
      types.add(randomType(0, true));
    }
    return tableRowOf(types);
  }

  /** A Hudi table's row type: {@code id BIGINT NOT NULL}, then every kind once, in random order. */
  public RowType tableRowTypeOfEveryKind() {
    List<LogicalType> types = oneOfEveryKind(true);
    Collections.shuffle(types, random);
    return tableRowOf(types);
  }

  /** A random row of {@code rowType} in Flink's internal object representation. */
  public GenericRowData genericRow(RowType rowType) {
    return row(rowType, true);
  }

  /** A random row of a {@link #tableRowType} whose key, field 0, is {@code id}. */
  public GenericRowData tableRow(RowType rowType, long id) {
    GenericRowData row = genericRow(rowType);
    row.setField(0, id);
    return row;
  }

  /** A random row of {@code rowType} as an independent {@link BinaryRowData}. */
  public BinaryRowData binaryRow(RowType rowType) {
    return toBinary(rowType, genericRow(rowType));
  }

  /** {@code row} as an independent {@link BinaryRowData} of {@code rowType}. */
  public static BinaryRowData toBinary(RowType rowType, RowData row) {
    return new RowDataSerializer(rowType).toBinaryRow(row).copy();
  }

  /** Lets the next {@code count} top-level string values be 1 MB long. */
  public void allowHugeStrings(int count) {
    this.hugeStrings = count;
  }

  /** A string of up to {@code maxCodePoints} code points from one random alphabet. */
  protected String string(int maxCodePoints) {
    return codePoints(random.nextInt(maxCodePoints + 1));
  }

  private String codePoints(int count) {
    int[] alphabet = ALPHABETS[random.nextInt(ALPHABETS.length)].codePoints().toArray();
    StringBuilder text = new StringBuilder(count);
    for (int i = 0; i < count; i++) {
      text.appendCodePoint(alphabet[random.nextInt(alphabet.length)]);
    }
    return text.toString();
  }

  private List<LogicalType> oneOfEveryKind(boolean stringKeys) {
    List<LogicalType> types = new ArrayList<>();
    for (int kind = 0; kind < KINDS; kind++) {
      types.add(type(kind, 0, stringKeys));
    }
    return types;
  }

  private static RowType tableRowOf(List<LogicalType> types) {
    List<RowType.RowField> fields = new ArrayList<>();
    fields.add(new RowType.RowField("id", new BigIntType(false)));
    fields.addAll(rowOf(types).getFields());
    return new RowType(fields);
  }

  private static RowType rowOf(List<LogicalType> types) {
    List<RowType.RowField> fields = new ArrayList<>();
    for (int i = 0; i < types.size(); i++) {
      fields.add(new RowType.RowField("f" + i + "_" + types.get(i).getTypeRoot(), types.get(i)));
    }
    return new RowType(fields);
  }

  private LogicalType randomType(int depth, boolean stringKeys) {
    int kinds = depth >= MAX_DEPTH ? KINDS - NESTED_KINDS : KINDS;
    return type(random.nextInt(kinds), depth, stringKeys);
  }

  /** Kinds 0..20 are atomic; 21..23 (ARRAY, MAP, ROW) nest and come last. */
  private LogicalType type(int kind, int depth, boolean stringKeys) {
    boolean nullable = random.nextInt(4) != 0;
    return switch (kind) {
      case 0 -> new BooleanType(nullable);
      case 1 -> new TinyIntType(nullable);
      case 2 -> new SmallIntType(nullable);
      case 3 -> new IntType(nullable);
      case 4 -> new BigIntType(nullable);
      case 5 -> new FloatType(nullable);
      case 6 -> new DoubleType(nullable);
      case 7 -> decimal(nullable, 1 + random.nextInt(MAX_COMPACT_DECIMAL_PRECISION));
      case 8 ->
          decimal(
              nullable,
              MAX_COMPACT_DECIMAL_PRECISION
                  + 1
                  + random.nextInt(DecimalType.MAX_PRECISION - MAX_COMPACT_DECIMAL_PRECISION));
      case 9 -> new CharType(nullable, 1 + random.nextInt(10));
      case 10 -> new VarCharType(nullable, 1 + random.nextInt(40));
      case 11 -> new VarCharType(nullable, VarCharType.MAX_LENGTH);
      case 12 -> new BinaryType(nullable, 1 + random.nextInt(16));
      case 13 -> new VarBinaryType(nullable, 1 + random.nextInt(40));
      case 14 -> new VarBinaryType(nullable, VarBinaryType.MAX_LENGTH);
      case 15 -> new DateType(nullable);
      case 16 -> new TimeType(nullable, random.nextInt(4));
      case 17 -> new TimestampType(nullable, compactTimestampPrecision());
      case 18 -> new TimestampType(nullable, wideTimestampPrecision());
      case 19 -> new LocalZonedTimestampType(nullable, compactTimestampPrecision());
      case 20 -> new LocalZonedTimestampType(nullable, wideTimestampPrecision());
      case 21 -> new ArrayType(nullable, randomType(depth + 1, stringKeys));
      case 22 ->
          new MapType(nullable, mapKeyType(depth, stringKeys), randomType(depth + 1, stringKeys));
      case 23 -> {
        List<LogicalType> fields = new ArrayList<>();
        int count = 1 + random.nextInt(4);
        for (int i = 0; i < count; i++) {
          fields.add(randomType(depth + 1, stringKeys));
        }
        yield rowOf(fields).copy(nullable);
      }
      default -> throw new IllegalArgumentException("no type kind " + kind);
    };
  }

  private DecimalType decimal(boolean nullable, int precision) {
    return new DecimalType(nullable, precision, random.nextInt(precision + 1));
  }

  private int compactTimestampPrecision() {
    return random.nextInt(MAX_COMPACT_TIMESTAMP_PRECISION + 1);
  }

  /** Up to microseconds: Avro, and so Hudi, holds no finer timestamps. */
  private int wideTimestampPrecision() {
    return MAX_COMPACT_TIMESTAMP_PRECISION + 1 + random.nextInt(3);
  }

  /** A non-null key type: CHAR, VARCHAR or STRING for a Hudi table, else any type. */
  private LogicalType mapKeyType(int depth, boolean stringKeys) {
    LogicalType key =
        stringKeys
            ? type(FIRST_STRING_KIND + random.nextInt(STRING_KINDS), depth + 1, true)
            : randomType(depth + 1, false);
    return key.copy(false);
  }

  private Object value(LogicalType type, boolean topLevel) {
    if (type.isNullable() && random.nextInt(6) == 0) {
      return null;
    }
    return switch (type.getTypeRoot()) {
      case BOOLEAN -> random.nextBoolean();
      case TINYINT -> (byte) random.nextInt();
      case SMALLINT -> (short) random.nextInt();
      case INTEGER -> random.nextInt();
      case BIGINT -> random.nextLong();
      case FLOAT -> random.nextInt(10) == 0 ? Float.NaN : random.nextFloat() * random.nextInt();
      case DOUBLE -> random.nextDouble() * random.nextLong();
      case DECIMAL -> decimal((DecimalType) type);
      case CHAR -> text(((CharType) type).getLength(), topLevel);
      case VARCHAR -> text(((VarCharType) type).getLength(), topLevel);
      case BINARY -> bytes(((BinaryType) type).getLength());
      case VARBINARY -> bytes(length(((VarBinaryType) type).getLength()));
      case DATE -> random.nextInt(-100_000, 100_000);
      case TIME_WITHOUT_TIME_ZONE -> random.nextInt(86_400_000);
      case TIMESTAMP_WITHOUT_TIME_ZONE, TIMESTAMP_WITH_LOCAL_TIME_ZONE ->
          TimestampData.fromEpochMillis(
              random.nextLong(-10_000_000_000_000L, 10_000_000_000_000L),
              random.nextInt(1_000_000));
      case ARRAY -> array(((ArrayType) type).getElementType());
      case MAP -> map((MapType) type);
      case ROW -> row((RowType) type, false);
      default -> throw new IllegalArgumentException("RandomRows has no values for " + type);
    };
  }

  /**
   * A length up to {@code maxLength} and 200: a third of the time at most 7, which a {@code
   * BinaryRowData} holds inline when the value has as many bytes.
   */
  private int length(int maxLength) {
    int bound = random.nextInt(3) == 0 ? 7 : 200;
    return random.nextInt(Math.min(maxLength, bound) + 1);
  }

  private StringData text(int maxLength, boolean topLevel) {
    if (topLevel && hugeStrings > 0) {
      hugeStrings--;
      return StringData.fromString(codePoints(HUGE_STRING_CODE_POINTS));
    }
    return StringData.fromString(codePoints(length(maxLength)));
  }

  private DecimalData decimal(DecimalType type) {
    int digits = 1 + random.nextInt(type.getPrecision());
    BigInteger unscaled = new BigInteger(digits * 4, random).mod(BigInteger.TEN.pow(digits));
    if (random.nextBoolean()) {
      unscaled = unscaled.negate();
    }
    return DecimalData.fromBigDecimal(
        new BigDecimal(unscaled, type.getScale()), type.getPrecision(), type.getScale());
  }

  private byte[] bytes(int length) {
    byte[] bytes = new byte[length];
    random.nextBytes(bytes);
    return bytes;
  }

  private GenericArrayData array(LogicalType elementType) {
    Object[] elements = new Object[random.nextInt(5)];
    for (int i = 0; i < elements.length; i++) {
      elements[i] = value(elementType, false);
    }
    return new GenericArrayData(elements);
  }

  private GenericMapData map(MapType type) {
    Map<Object, Object> entries = new LinkedHashMap<>();
    int size = random.nextInt(4);
    for (int i = 0; i < size; i++) {
      entries.put(value(type.getKeyType(), false), value(type.getValueType(), false));
    }
    return new GenericMapData(entries);
  }

  private GenericRowData row(RowType rowType, boolean topLevel) {
    GenericRowData row = new GenericRowData(rowType.getFieldCount());
    for (int i = 0; i < rowType.getFieldCount(); i++) {
      row.setField(i, value(rowType.getTypeAt(i), topLevel));
    }
    return row;
  }
}
