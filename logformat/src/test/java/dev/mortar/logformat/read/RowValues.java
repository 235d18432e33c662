package dev.mortar.logformat.read;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.apache.flink.table.data.ArrayData;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.MapData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;

/**
 * A row's values as plain Java values that compare with {@code equals}, read through Flink's
 * getters: strings as {@code String}, binaries as hex, decimals as {@code BigDecimal}, arrays and
 * rows as lists, maps as lists of key/value pairs in stored order. Timestamps above precision 3
 * become {@code [millis, micros of the milli]}: Avro keeps micros, so the nanoseconds below them
 * are not part of what a log file holds.
 */
final class RowValues {
  private RowValues() {}

  static List<Object> of(RowType type, RowData row) {
    List<Object> values = new ArrayList<>();
    for (int i = 0; i < type.getFieldCount(); i++) {
      LogicalType field = type.getTypeAt(i);
      values.add(value(field, RowData.createFieldGetter(field, i).getFieldOrNull(row)));
    }
    return values;
  }

  private static Object value(LogicalType type, Object value) {
    if (value == null) {
      return null;
    }
    switch (type.getTypeRoot()) {
      case CHAR:
      case VARCHAR:
        return ((StringData) value).toString();
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
        return elements(((ArrayType) type).getElementType(), (ArrayData) value);
      case MAP:
        MapType mapType = (MapType) type;
        MapData map = (MapData) value;
        List<Object> keys = elements(mapType.getKeyType(), map.keyArray());
        List<Object> values = elements(mapType.getValueType(), map.valueArray());
        List<Object> entries = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
          entries.add(java.util.Arrays.asList(keys.get(i), values.get(i)));
        }
        return entries;
      case ROW:
        return of((RowType) type, (RowData) value);
      default:
        return value; // boxed primitives: booleans, numbers, epoch days, millis of day
    }
  }

  private static Object timestamp(int precision, TimestampData value) {
    return precision <= 3
        ? value.getMillisecond()
        : List.of(value.getMillisecond(), value.getNanoOfMillisecond() / 1000);
  }

  private static List<Object> elements(LogicalType elementType, ArrayData array) {
    ArrayData.ElementGetter getter = ArrayData.createElementGetter(elementType);
    List<Object> elements = new ArrayList<>();
    for (int i = 0; i < array.size(); i++) {
      elements.add(value(elementType, getter.getElementOrNull(array, i)));
    }
    return elements;
  }
}
