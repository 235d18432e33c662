package dev.mortar.serde.testutil;

import dev.mortar.serde.MortarRow;
import dev.mortar.serde.Operation;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinaryStringData;
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
 * Random row types over every Flink SQL type a Hudi table can hold, and random rows of them, for
 * randomized serializer tests in any module (published in mortar-serde's test-jar).
 *
 * <p>{@link #rowType} always contains each of BOOLEAN, TINYINT, SMALLINT, INT, BIGINT, FLOAT,
 * DOUBLE, compact and non-compact DECIMAL, CHAR, VARCHAR, STRING, BINARY, VARBINARY, BYTES, DATE,
 * TIME, TIMESTAMP(3), TIMESTAMP(6), TIMESTAMP_LTZ(3), TIMESTAMP_LTZ(6), ARRAY, MAP and ROW at least
 * once, plus random extra fields, in random order, with random nullability. Values are null in
 * about one position in eight wherever the type allows it; strings mix ASCII with 2-, 3- and 4-byte
 * UTF-8 characters and cross the 7-byte inline limit of {@code BinaryRowData}. Everything follows
 * from the seed.
 */
public final class RandomRows {
  private static final String[] CHARS = {"a", "Z", "7", " ", "é", "ß", "€", "中", "文", "😀", "𝄞"};
  private static final int MAX_DEPTH = 2;

  /** Number of type kinds {@link #type} knows; the last three nest. */
  private static final int KINDS = 24;

  private final Random random;

  public RandomRows(long seed) {
    this.random = new Random(seed);
  }

  /** A row type with every supported type at least once plus up to {@code maxExtra} more. */
  public RowType rowType(int maxExtra) {
    List<LogicalType> types = new ArrayList<>();
    for (int kind = 0; kind < KINDS; kind++) {
      types.add(type(kind, 0));
    }
    int extra = random.nextInt(maxExtra + 1);
    for (int i = 0; i < extra; i++) {
      types.add(randomType(0));
    }
    Collections.shuffle(types, random);
    return rowOf(types);
  }

  /** A random MortarRow of {@code payloadType}: random key, partition, bucket, operation, row. */
  public MortarRow mortarRow(RowType payloadType) {
    BinaryStringData key = BinaryStringData.fromString(string(random.nextInt(40)));
    BinaryStringData partition =
        random.nextInt(3) == 0
            ? BinaryStringData.EMPTY_UTF8
            : BinaryStringData.fromString("dt=2026-11-" + random.nextInt(30) + "/" + string(3));
    int bucket =
        switch (random.nextInt(4)) {
          case 0 -> random.nextInt(128);
          case 1 -> random.nextInt(1 << 20);
          case 2 -> random.nextInt();
          default -> -1 - random.nextInt(4);
        };
    Operation operation = Operation.values()[random.nextInt(Operation.values().length)];
    BinaryRowData payload = random.nextInt(20) == 0 ? null : binaryRow(payloadType);
    return new MortarRow(key, partition, bucket, operation, payload);
  }

  /** A random row of {@code rowType} as an independent {@link BinaryRowData}. */
  public BinaryRowData binaryRow(RowType rowType) {
    return new RowDataSerializer(rowType).toBinaryRow(genericRow(rowType)).copy();
  }

  /** A random row of {@code rowType} in Flink's internal object representation. */
  public GenericRowData genericRow(RowType rowType) {
    GenericRowData row = new GenericRowData(rowType.getFieldCount());
    for (int i = 0; i < rowType.getFieldCount(); i++) {
      row.setField(i, value(rowType.getTypeAt(i)));
    }
    return row;
  }

  /** A string of up to {@code maxChars} characters drawn from ASCII and multi-byte UTF-8. */
  public String string(int maxChars) {
    int length = maxChars == 0 ? 0 : random.nextInt(maxChars + 1);
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < length; i++) {
      text.append(CHARS[random.nextInt(CHARS.length)]);
    }
    return text.toString();
  }

  private LogicalType randomType(int depth) {
    int kinds = depth >= MAX_DEPTH ? KINDS - 3 : KINDS;
    return type(random.nextInt(kinds), depth);
  }

  /** Kinds 0..20 are atomic; 21..23 (ARRAY, MAP, ROW) nest and come last. */
  private LogicalType type(int kind, int depth) {
    boolean nullable = random.nextInt(4) != 0;
    return switch (kind) {
      case 0 -> new BooleanType(nullable);
      case 1 -> new TinyIntType(nullable);
      case 2 -> new SmallIntType(nullable);
      case 3 -> new IntType(nullable);
      case 4 -> new BigIntType(nullable);
      case 5 -> new FloatType(nullable);
      case 6 -> new DoubleType(nullable);
      case 7 -> {
        int precision = 1 + random.nextInt(18);
        yield new DecimalType(nullable, precision, random.nextInt(Math.min(5, precision + 1)));
      }
      case 8 -> new DecimalType(nullable, 19 + random.nextInt(20), random.nextInt(12));
      case 9 -> new CharType(nullable, 1 + random.nextInt(10));
      case 10 -> new VarCharType(nullable, 1 + random.nextInt(40));
      case 11 -> new VarCharType(nullable, VarCharType.MAX_LENGTH);
      case 12 -> new BinaryType(nullable, 1 + random.nextInt(16));
      case 13 -> new VarBinaryType(nullable, 1 + random.nextInt(40));
      case 14 -> new VarBinaryType(nullable, VarBinaryType.MAX_LENGTH);
      case 15 -> new DateType(nullable);
      case 16 -> new TimeType(nullable, random.nextInt(4));
      case 17 -> new TimestampType(nullable, 3);
      case 18 -> new TimestampType(nullable, 6);
      case 19 -> new LocalZonedTimestampType(nullable, 3);
      case 20 -> new LocalZonedTimestampType(nullable, 6);
      case 21 -> new ArrayType(nullable, randomType(depth + 1));
      case 22 -> new MapType(nullable, randomType(depth + 1).copy(false), randomType(depth + 1));
      case 23 -> {
        List<LogicalType> fields = new ArrayList<>();
        int count = 1 + random.nextInt(4);
        for (int i = 0; i < count; i++) {
          fields.add(randomType(depth + 1));
        }
        yield rowOf(fields).copy(nullable);
      }
      default -> throw new IllegalArgumentException("no type kind " + kind);
    };
  }

  private static RowType rowOf(List<LogicalType> types) {
    List<RowType.RowField> fields = new ArrayList<>();
    for (int i = 0; i < types.size(); i++) {
      fields.add(new RowType.RowField("f" + i + "_" + types.get(i).getTypeRoot(), types.get(i)));
    }
    return new RowType(fields);
  }

  private Object value(LogicalType type) {
    if (type.isNullable() && random.nextInt(8) == 0) {
      return null;
    }
    return switch (type.getTypeRoot()) {
      case BOOLEAN -> random.nextBoolean();
      case TINYINT -> (byte) random.nextInt();
      case SMALLINT -> (short) random.nextInt();
      case INTEGER -> random.nextInt();
      case BIGINT -> random.nextLong();
      case FLOAT -> random.nextFloat() * random.nextInt();
      case DOUBLE -> random.nextDouble() * random.nextLong();
      case DECIMAL -> decimal((DecimalType) type);
      case CHAR -> StringData.fromString(string(((CharType) type).getLength()));
      case VARCHAR -> StringData.fromString(string(Math.min(((VarCharType) type).getLength(), 60)));
      case BINARY -> bytes(((BinaryType) type).getLength());
      case VARBINARY -> bytes(random.nextInt(Math.min(((VarBinaryType) type).getLength(), 60) + 1));
      case DATE -> random.nextInt(50_000) - 10_000;
      case TIME_WITHOUT_TIME_ZONE -> random.nextInt(86_400_000);
      case TIMESTAMP_WITHOUT_TIME_ZONE -> timestamp(((TimestampType) type).getPrecision());
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE ->
          timestamp(((LocalZonedTimestampType) type).getPrecision());
      case ARRAY -> array(((ArrayType) type).getElementType());
      case MAP -> map((MapType) type);
      case ROW -> genericRow((RowType) type);
      default -> throw new IllegalArgumentException("RandomRows has no values for " + type);
    };
  }

  private DecimalData decimal(DecimalType type) {
    int digits = 1 + random.nextInt(type.getPrecision());
    BigInteger unscaled = new BigInteger(digits * 3, random);
    if (unscaled.toString().length() > type.getPrecision()) {
      unscaled = BigInteger.valueOf(random.nextInt(1000));
    }
    if (random.nextBoolean()) {
      unscaled = unscaled.negate();
    }
    BigDecimal value = new BigDecimal(unscaled, type.getScale());
    return DecimalData.fromBigDecimal(value, type.getPrecision(), type.getScale());
  }

  private byte[] bytes(int length) {
    byte[] bytes = new byte[length];
    random.nextBytes(bytes);
    return bytes;
  }

  private TimestampData timestamp(int precision) {
    long millis = random.nextLong() % 4_000_000_000_000L;
    int nanos = precision > 3 ? random.nextInt(1_000) * 1_000 : 0;
    return TimestampData.fromEpochMillis(millis, nanos);
  }

  private GenericArrayData array(LogicalType elementType) {
    Object[] elements = new Object[random.nextInt(5)];
    for (int i = 0; i < elements.length; i++) {
      elements[i] = value(elementType);
    }
    return new GenericArrayData(elements);
  }

  private GenericMapData map(MapType type) {
    Map<Object, Object> entries = new HashMap<>();
    int size = random.nextInt(4);
    for (int i = 0; i < size; i++) {
      entries.put(value(type.getKeyType()), value(type.getValueType()));
    }
    return new GenericMapData(entries);
  }
}
