package dev.mortar.logformat;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.avro.generic.GenericFixed;
import org.apache.avro.generic.IndexedRecord;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericMapData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.MapData;
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
 * Random row types over every type the log writer supports, random rows of them (nulls, multi-byte
 * and inlined short strings, optional 1 MB strings), and a normal form to compare what we wrote
 * with what Hudi's reader returns. Reproducible from a seed.
 */
final class RandomRows {
  private static final String[] ALPHABETS = {"abcXYZ019", "äöüßé", "中文字符", "😀🚀", " \t\"\\"};

  private final SplittableRandom random;
  private int hugeStrings;

  RandomRows(long seed) {
    this.random = new SplittableRandom(seed);
  }

  /** The seed from {@code -Dmortar.seed}, else a fresh one; logged so a failure can be re-run. */
  static long seed(String test) {
    long seed = Long.getLong("mortar.seed", System.nanoTime());
    System.out.println(test + ": seed " + seed + " (re-run with -Dmortar.seed=" + seed + ")");
    return seed;
  }

  /** Number of runs of randomized tests: {@code -Dmortar.iterations}, else {@code defaultCount}. */
  static int iterations(int defaultCount) {
    return Integer.getInteger("mortar.iterations", defaultCount);
  }

  /** Lets the next {@code count} top-level string values be 1 MB long. */
  void allowHugeStrings(int count) {
    this.hugeStrings = count;
  }

  /** A row type with a non-null BIGINT key {@code id} first, then random fields. */
  RowType rowType(int extraFields) {
    List<RowType.RowField> fields = new ArrayList<>();
    fields.add(new RowType.RowField("id", new BigIntType(false)));
    for (int i = 0; i < extraFields; i++) {
      fields.add(new RowType.RowField("f" + i, type(2)));
    }
    return new RowType(fields);
  }

  /** One random field per supported type, so every type is covered regardless of the seed. */
  RowType allTypes() {
    List<LogicalType> types =
        List.of(
            new BooleanType(),
            new TinyIntType(),
            new SmallIntType(),
            new IntType(),
            new BigIntType(),
            new FloatType(),
            new DoubleType(),
            new CharType(5),
            VarCharType.STRING_TYPE,
            new BinaryType(4),
            new VarBinaryType(VarBinaryType.MAX_LENGTH),
            new DecimalType(10, 2),
            new DecimalType(38, 10),
            new DateType(),
            new TimeType(3),
            new TimestampType(3),
            new TimestampType(6),
            new LocalZonedTimestampType(3),
            new LocalZonedTimestampType(6),
            new ArrayType(VarCharType.STRING_TYPE),
            new ArrayType(new IntType(false)),
            new MapType(VarCharType.STRING_TYPE, new DecimalType(20, 4)),
            RowType.of(new IntType(), VarCharType.STRING_TYPE));
    List<RowType.RowField> fields = new ArrayList<>();
    fields.add(new RowType.RowField("id", new BigIntType(false)));
    for (int i = 0; i < types.size(); i++) {
      fields.add(new RowType.RowField("t" + i, types.get(i).copy(random.nextBoolean())));
    }
    return new RowType(fields);
  }

  private LogicalType type(int depth) {
    boolean nullable = random.nextInt(4) != 0;
    int kinds = depth > 0 ? 20 : 17;
    switch (random.nextInt(kinds)) {
      case 0:
        return new BooleanType(nullable);
      case 1:
        return new TinyIntType(nullable);
      case 2:
        return new SmallIntType(nullable);
      case 3:
        return new IntType(nullable);
      case 4:
        return new BigIntType(nullable);
      case 5:
        return new FloatType(nullable);
      case 6:
        return new DoubleType(nullable);
      case 7:
        return new CharType(nullable, 1 + random.nextInt(10));
      case 8:
      case 9:
        return new VarCharType(nullable, VarCharType.MAX_LENGTH);
      case 10:
        return new VarBinaryType(nullable, VarBinaryType.MAX_LENGTH);
      case 11:
        int precision = 1 + random.nextInt(38);
        return new DecimalType(nullable, precision, random.nextInt(precision + 1));
      case 12:
        return new DateType(nullable);
      case 13:
        return new TimeType(nullable, random.nextInt(4));
      case 14:
        return new TimestampType(nullable, random.nextInt(7));
      case 15:
        return new LocalZonedTimestampType(nullable, random.nextInt(7));
      case 16:
        return new BinaryType(nullable, 1 + random.nextInt(8));
      case 17:
        return new ArrayType(nullable, type(depth - 1));
      case 18:
        return new MapType(
            nullable, new VarCharType(false, VarCharType.MAX_LENGTH), type(depth - 1));
      default:
        List<RowType.RowField> fields = new ArrayList<>();
        int count = 1 + random.nextInt(3);
        for (int i = 0; i < count; i++) {
          fields.add(new RowType.RowField("n" + i, type(depth - 1)));
        }
        return new RowType(nullable, fields);
    }
  }

  /** A random row whose field 0 is {@code id}. */
  GenericRowData row(RowType rowType, long id) {
    GenericRowData row = new GenericRowData(rowType.getFieldCount());
    row.setField(0, id);
    for (int i = 1; i < rowType.getFieldCount(); i++) {
      row.setField(i, value(rowType.getTypeAt(i), true));
    }
    return row;
  }

  static BinaryRowData toBinary(RowType rowType, RowData row) {
    return new RowDataSerializer(rowType).toBinaryRow(row).copy();
  }

  private Object value(LogicalType type, boolean topLevel) {
    if (type.isNullable() && random.nextInt(5) == 0) {
      return null;
    }
    switch (type.getTypeRoot()) {
      case BOOLEAN:
        return random.nextBoolean();
      case TINYINT:
        return (byte) random.nextInt();
      case SMALLINT:
        return (short) random.nextInt();
      case INTEGER:
        return random.nextInt();
      case BIGINT:
        return random.nextLong();
      case FLOAT:
        return random.nextInt(10) == 0 ? Float.NaN : (float) random.nextDouble(-1e6, 1e6);
      case DOUBLE:
        return random.nextDouble(-1e12, 1e12);
      case CHAR:
      case VARCHAR:
        if (topLevel && hugeStrings > 0) {
          hugeStrings--;
          return StringData.fromString(text(1 << 20));
        }
        return StringData.fromString(
            text(random.nextInt(3) == 0 ? random.nextInt(4) : random.nextInt(200)));
      case BINARY:
      case VARBINARY:
        byte[] bytes = new byte[random.nextInt(3) == 0 ? random.nextInt(8) : random.nextInt(100)];
        random.nextBytes(bytes);
        return bytes;
      case DECIMAL:
        DecimalType decimal = (DecimalType) type;
        BigInteger unscaled =
            new BigInteger(130, new java.util.Random(random.nextLong()))
                .mod(BigInteger.TEN.pow(decimal.getPrecision()));
        if (random.nextBoolean()) {
          unscaled = unscaled.negate();
        }
        return DecimalData.fromBigDecimal(
            new BigDecimal(unscaled, decimal.getScale()),
            decimal.getPrecision(),
            decimal.getScale());
      case DATE:
        return random.nextInt(-100_000, 100_000);
      case TIME_WITHOUT_TIME_ZONE:
        return random.nextInt(86_400_000);
      case TIMESTAMP_WITHOUT_TIME_ZONE:
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
        return TimestampData.fromEpochMillis(
            random.nextLong(-10_000_000_000_000L, 10_000_000_000_000L), random.nextInt(1_000_000));
      case ARRAY:
        LogicalType element = ((ArrayType) type).getElementType();
        Object[] items = new Object[random.nextInt(4)];
        for (int i = 0; i < items.length; i++) {
          items[i] = value(element, false);
        }
        return new GenericArrayData(items);
      case MAP:
        Map<Object, Object> map = new LinkedHashMap<>();
        int size = random.nextInt(4);
        for (int i = 0; i < size; i++) {
          map.put(
              StringData.fromString("k" + i + text(random.nextInt(5))),
              value(((MapType) type).getValueType(), false));
        }
        return new GenericMapData(map);
      case ROW:
        List<RowType.RowField> fields = ((RowType) type).getFields();
        GenericRowData row = new GenericRowData(fields.size());
        for (int i = 0; i < fields.size(); i++) {
          row.setField(i, value(fields.get(i).getType(), false));
        }
        return row;
      default:
        throw new IllegalArgumentException(type.asSummaryString());
    }
  }

  private String text(int codePoints) {
    String alphabet = ALPHABETS[random.nextInt(ALPHABETS.length)];
    StringBuilder text = new StringBuilder(codePoints);
    int[] points = alphabet.codePoints().toArray();
    for (int i = 0; i < codePoints; i++) {
      text.appendCodePoint(points[random.nextInt(points.length)]);
    }
    return text.toString();
  }

  // ---- normal form: what a value means, independent of Flink or Avro representation ----

  /** The normal form of a Flink internal value of {@code type}. */
  static Object expected(LogicalType type, Object value) {
    if (value == null) {
      return null;
    }
    switch (type.getTypeRoot()) {
      case TINYINT:
      case SMALLINT:
        return ((Number) value).intValue();
      case CHAR:
      case VARCHAR:
        return value.toString();
      case BINARY:
      case VARBINARY:
        return HexFormat.of().formatHex((byte[]) value);
      case DECIMAL:
        return ((DecimalData) value).toBigDecimal();
      case TIMESTAMP_WITHOUT_TIME_ZONE:
        return timestamp(((TimestampType) type).getPrecision(), (TimestampData) value);
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
        return timestamp(((LocalZonedTimestampType) type).getPrecision(), (TimestampData) value);
      case ARRAY:
        LogicalType element = ((ArrayType) type).getElementType();
        ArrayData array = (ArrayData) value;
        ArrayData.ElementGetter getter = ArrayData.createElementGetter(element);
        List<Object> list = new ArrayList<>();
        for (int i = 0; i < array.size(); i++) {
          list.add(expected(element, getter.getElementOrNull(array, i)));
        }
        return list;
      case MAP:
        MapType mapType = (MapType) type;
        MapData map = (MapData) value;
        ArrayData.ElementGetter values = ArrayData.createElementGetter(mapType.getValueType());
        Map<String, Object> normal = new HashMap<>();
        for (int i = 0; i < map.size(); i++) {
          normal.put(
              map.keyArray().getString(i).toString(),
              expected(mapType.getValueType(), values.getElementOrNull(map.valueArray(), i)));
        }
        return normal;
      case ROW:
        return expectedFields((RowType) type, (RowData) value);
      default:
        return value;
    }
  }

  static List<Object> expectedFields(RowType rowType, RowData row) {
    List<Object> fields = new ArrayList<>();
    for (int i = 0; i < rowType.getFieldCount(); i++) {
      LogicalType fieldType = rowType.getTypeAt(i);
      fields.add(expected(fieldType, RowData.createFieldGetter(fieldType, i).getFieldOrNull(row)));
    }
    return fields;
  }

  private static long timestamp(int precision, TimestampData value) {
    return precision <= 3
        ? value.getMillisecond()
        : value.getMillisecond() * 1000 + value.getNanoOfMillisecond() / 1000;
  }

  /** The normal form of a value Hudi's reader returned for a field of Flink type {@code type}. */
  static Object actual(LogicalType type, Object value) {
    if (value == null) {
      return null;
    }
    switch (type.getTypeRoot()) {
      case CHAR:
      case VARCHAR:
        return value.toString();
      case BINARY:
      case VARBINARY:
        return HexFormat.of().formatHex(bytes(value));
      case DECIMAL:
        if (value instanceof BigDecimal) {
          return value;
        }
        return new BigDecimal(new BigInteger(bytes(value)), ((DecimalType) type).getScale());
      case DATE:
        return value instanceof LocalDate ? (int) ((LocalDate) value).toEpochDay() : value;
      case TIME_WITHOUT_TIME_ZONE:
        return value instanceof LocalTime
            ? (int) (((LocalTime) value).toNanoOfDay() / 1_000_000)
            : value;
      case TIMESTAMP_WITHOUT_TIME_ZONE:
        return timestampValue(((TimestampType) type).getPrecision(), value);
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
        return timestampValue(((LocalZonedTimestampType) type).getPrecision(), value);
      case ARRAY:
        List<Object> list = new ArrayList<>();
        for (Object item : (List<?>) value) {
          list.add(actual(((ArrayType) type).getElementType(), item));
        }
        return list;
      case MAP:
        Map<String, Object> map = new HashMap<>();
        for (Map.Entry<?, ?> entry : ((Map<?, ?>) value).entrySet()) {
          map.put(
              entry.getKey().toString(), actual(((MapType) type).getValueType(), entry.getValue()));
        }
        return map;
      case ROW:
        return actualFields((RowType) type, (IndexedRecord) value, 0);
      default:
        return value;
    }
  }

  /** Fields of {@code record} from position {@code first} on, in normal form. */
  static List<Object> actualFields(RowType rowType, IndexedRecord record, int first) {
    List<Object> fields = new ArrayList<>();
    for (int i = 0; i < rowType.getFieldCount(); i++) {
      fields.add(actual(rowType.getTypeAt(i), record.get(first + i)));
    }
    return fields;
  }

  private static Object timestampValue(int precision, Object value) {
    Instant instant;
    if (value instanceof Instant) {
      instant = (Instant) value;
    } else if (value instanceof LocalDateTime) {
      instant = ((LocalDateTime) value).toInstant(ZoneOffset.UTC);
    } else {
      return value;
    }
    return precision <= 3
        ? instant.toEpochMilli()
        : ChronoUnit.MICROS.between(Instant.EPOCH, instant);
  }

  private static byte[] bytes(Object value) {
    if (value instanceof GenericFixed) {
      return ((GenericFixed) value).bytes();
    }
    ByteBuffer buffer = ((ByteBuffer) value).duplicate();
    byte[] bytes = new byte[buffer.remaining()];
    buffer.get(bytes);
    return bytes;
  }
}
