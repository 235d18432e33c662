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
import java.util.List;
import java.util.Map;
import org.apache.avro.generic.GenericFixed;
import org.apache.avro.generic.IndexedRecord;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;

/**
 * The normal form of a value: what it means, independent of its Flink or Avro representation, so
 * the rows we wrote compare with what Hudi's reader returns. Strings and CHAR are Java strings,
 * bytes hex, decimals {@code BigDecimal}, dates epoch days, times milliseconds of the day,
 * timestamps epoch milliseconds or microseconds as their precision says, arrays lists, maps
 * string-keyed maps, rows lists of fields.
 */
public final class NormalForm {
  private NormalForm() {}

  /** The normal form of a Flink internal value of {@code type}. */
  public static Object expected(LogicalType type, Object value) {
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

  public static List<Object> expectedFields(RowType rowType, RowData row) {
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
