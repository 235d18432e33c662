package dev.mortar.logformat.read;

import dev.mortar.logformat.SchemaEvolution;
import java.math.BigDecimal;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.data.writer.BinaryWriter;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.utils.LogicalTypeChecks;
import org.apache.parquet.column.Dictionary;
import org.apache.parquet.io.ParquetDecodingException;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.DecimalLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.IntLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimestampLogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;

/**
 * The converter of a projected Parquet field as a value of a Flink type, writing into a {@link
 * Slot}. Accepted physical types per Flink type:
 *
 * <table>
 *   <tr><th>Flink</th><th>Parquet</th></tr>
 *   <tr><td>BOOLEAN</td><td>BOOLEAN</td></tr>
 *   <tr><td>TINYINT, SMALLINT, INT, DATE, TIME</td><td>INT32 (TIME as milliseconds)</td></tr>
 *   <tr><td>BIGINT</td><td>INT64; INT32 written before the column was widened</td></tr>
 *   <tr><td>FLOAT</td><td>FLOAT; INT32, INT64 written before the column was widened</td></tr>
 *   <tr><td>DOUBLE</td><td>DOUBLE; INT32, INT64, FLOAT written before the column was
 *       widened</td></tr>
 *   <tr><td>CHAR, VARCHAR, BINARY, VARBINARY</td><td>BINARY, FIXED_LEN_BYTE_ARRAY; for VARCHAR
 *       also INT32, INT64, FLOAT, DOUBLE written before the column became a string</td></tr>
 *   <tr><td>DECIMAL(p, s)</td><td>INT32, INT64, BINARY, FIXED_LEN_BYTE_ARRAY annotated
 *       DECIMAL(_, s) (bytes are big-endian two's complement)</td></tr>
 *   <tr><td>TIMESTAMP, TIMESTAMP_LTZ</td><td>INT64 annotated TIMESTAMP(MILLIS|MICROS|NANOS), or
 *       bare INT64 in the unit of the Avro mapping (millis up to precision 3, micros above)</td></tr>
 * </table>
 *
 * Byte values use the column's dictionary when it has one: each entry is copied once per row group
 * instead of once per value.
 */
final class Converters {
  private Converters() {}

  static Converter of(Type type, LogicalType flinkType, String path, Slot slot) {
    switch (flinkType.getTypeRoot()) {
      case ROW:
        return new RowConverter(type.asGroupType(), (RowType) flinkType, path, slot);
      case ARRAY:
        return new ListConverter(type.asGroupType(), (ArrayType) flinkType, path, slot);
      case MAP:
        return new MapConverter(type.asGroupType(), (MapType) flinkType, path, slot);
      default:
        return primitive(type.asPrimitiveType(), flinkType, path, slot);
    }
  }

  private static PrimitiveConverter primitive(
      PrimitiveType type, LogicalType flinkType, String path, Slot slot) {
    PrimitiveTypeName physical = type.getPrimitiveTypeName();
    switch (flinkType.getTypeRoot()) {
      case BOOLEAN:
        expect(physical == PrimitiveTypeName.BOOLEAN, type, flinkType, path);
        return new PrimitiveConverter() {
          @Override
          public void addBoolean(boolean value) {
            int pos = slot.claim();
            slot.writer().writeBoolean(pos, value);
          }
        };
      case TINYINT:
        expect(physical == PrimitiveTypeName.INT32, type, flinkType, path);
        return new IntConverter(slot, (writer, pos, value) -> writer.writeByte(pos, (byte) value));
      case SMALLINT:
        expect(physical == PrimitiveTypeName.INT32, type, flinkType, path);
        return new IntConverter(
            slot, (writer, pos, value) -> writer.writeShort(pos, (short) value));
      case INTEGER:
      case DATE:
      case TIME_WITHOUT_TIME_ZONE:
        expect(physical == PrimitiveTypeName.INT32, type, flinkType, path);
        return new IntConverter(slot, BinaryWriter::writeInt);
      case BIGINT:
        if (physical != PrimitiveTypeName.INT64) {
          return widened(type, flinkType, path, slot);
        }
        return new LongConverter(slot, BinaryWriter::writeLong);
      case FLOAT:
        if (physical != PrimitiveTypeName.FLOAT) {
          return widened(type, flinkType, path, slot);
        }
        return new PrimitiveConverter() {
          @Override
          public void addFloat(float value) {
            int pos = slot.claim();
            slot.writer().writeFloat(pos, value);
          }
        };
      case DOUBLE:
        if (physical != PrimitiveTypeName.DOUBLE) {
          return widened(type, flinkType, path, slot);
        }
        return new PrimitiveConverter() {
          @Override
          public void addDouble(double value) {
            int pos = slot.claim();
            slot.writer().writeDouble(pos, value);
          }
        };
      case CHAR:
      case VARCHAR:
      case BINARY:
      case VARBINARY:
        if (!isBytes(physical) && flinkType.getTypeRoot() == LogicalTypeRoot.VARCHAR) {
          return numberAsString(type, flinkType, path, slot);
        }
        // Strings and byte strings share one layout in Flink's binary formats.
        expect(isBytes(physical), type, flinkType, path);
        return new BytesConverter(slot, BinaryWriter::writeBinary);
      case DECIMAL:
        return decimal(type, flinkType, path, slot);
      case TIMESTAMP_WITHOUT_TIME_ZONE:
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
        return timestamp(type, flinkType, path, slot);
      default:
        throw new IllegalArgumentException(
            "column " + path + ": type " + flinkType.asSummaryString() + " is not supported");
    }
  }

  /**
   * A column written before it was widened ({@code SchemaEvolution}), read as the wider BIGINT,
   * FLOAT or DOUBLE: a plain INT32 or INT64 (no annotation but an integer one), or a FLOAT read as
   * DOUBLE. Each value is widened as Hudi's readers widen it ({@code SchemaEvolution}).
   */
  private static PrimitiveConverter widened(
      PrimitiveType type, LogicalType flinkType, String path, Slot slot) {
    PrimitiveTypeName physical = type.getPrimitiveTypeName();
    LogicalTypeAnnotation annotation = type.getLogicalTypeAnnotation();
    boolean plainInteger =
        (physical == PrimitiveTypeName.INT32 || physical == PrimitiveTypeName.INT64)
            && (annotation == null || annotation instanceof IntLogicalTypeAnnotation);
    LogicalTypeRoot target = flinkType.getTypeRoot();
    expect(
        plainInteger || (physical == PrimitiveTypeName.FLOAT && target == LogicalTypeRoot.DOUBLE),
        type,
        flinkType,
        path);
    LongWrite write =
        switch (target) {
          case BIGINT -> BinaryWriter::writeLong;
          case FLOAT -> (writer, pos, value) -> writer.writeFloat(pos, value);
          default -> (writer, pos, value) -> writer.writeDouble(pos, value);
        };
    return new PrimitiveConverter() {
      @Override
      public void addInt(int value) {
        addLong(value);
      }

      @Override
      public void addLong(long value) {
        int pos = slot.claim();
        write.write(slot.writer(), pos, value);
      }

      @Override
      public void addFloat(float value) {
        int pos = slot.claim();
        slot.writer().writeDouble(pos, SchemaEvolution.widen(value));
      }
    };
  }

  /**
   * A plain number column written before it became a STRING ({@code SchemaEvolution}): each value
   * as its Java {@code toString}, as Hudi's readers give it.
   */
  private static PrimitiveConverter numberAsString(
      PrimitiveType type, LogicalType flinkType, String path, Slot slot) {
    PrimitiveTypeName physical = type.getPrimitiveTypeName();
    LogicalTypeAnnotation annotation = type.getLogicalTypeAnnotation();
    expect(
        physical == PrimitiveTypeName.FLOAT
            || physical == PrimitiveTypeName.DOUBLE
            || ((physical == PrimitiveTypeName.INT32 || physical == PrimitiveTypeName.INT64)
                && (annotation == null || annotation instanceof IntLogicalTypeAnnotation)),
        type,
        flinkType,
        path);
    return new PrimitiveConverter() {
      @Override
      public void addInt(int value) {
        write(Integer.toString(value));
      }

      @Override
      public void addLong(long value) {
        write(Long.toString(value));
      }

      @Override
      public void addFloat(float value) {
        write(Float.toString(value));
      }

      @Override
      public void addDouble(double value) {
        write(Double.toString(value));
      }

      private void write(String value) {
        int pos = slot.claim();
        slot.writer().writeString(pos, BinaryStringData.fromString(value));
      }
    };
  }

  private static PrimitiveConverter decimal(
      PrimitiveType type, LogicalType flinkType, String path, Slot slot) {
    int precision = LogicalTypeChecks.getPrecision(flinkType);
    int scale = LogicalTypeChecks.getScale(flinkType);
    LogicalTypeAnnotation annotation = type.getLogicalTypeAnnotation();
    expect(
        annotation instanceof DecimalLogicalTypeAnnotation
            && ((DecimalLogicalTypeAnnotation) annotation).getScale() == scale,
        type,
        flinkType,
        path);
    LongWrite fromUnscaledLong =
        DecimalData.isCompact(precision)
            ? BinaryWriter::writeLong
            : (writer, pos, unscaled) ->
                writer.writeDecimal(
                    pos,
                    DecimalData.fromBigDecimal(
                        BigDecimal.valueOf(unscaled, scale), precision, scale),
                    precision);
    switch (type.getPrimitiveTypeName()) {
      case INT32:
        return new IntConverter(slot, fromUnscaledLong::write);
      case INT64:
        return new LongConverter(slot, fromUnscaledLong);
      case BINARY:
      case FIXED_LEN_BYTE_ARRAY:
        if (DecimalData.isCompact(precision)) {
          return new BytesConverter(
              slot, (writer, pos, bytes) -> writer.writeLong(pos, unscaledLong(bytes)));
        }
        return new BytesConverter(
            slot,
            (writer, pos, bytes) -> {
              DecimalData value = DecimalData.fromUnscaledBytes(bytes, precision, scale);
              if (value == null) {
                throw new ParquetDecodingException(
                    "column " + path + ": a value has more than " + precision + " digits");
              }
              writer.writeDecimal(pos, value, precision);
            });
      default:
        throw mismatch(type, flinkType, path);
    }
  }

  /** A big-endian two's complement integer that fits a long (sign bytes before it may repeat). */
  private static long unscaledLong(byte[] bytes) {
    long value = bytes.length > 0 && bytes[0] < 0 ? -1 : 0;
    for (byte b : bytes) {
      value = (value << 8) | (b & 0xff);
    }
    return value;
  }

  private static PrimitiveConverter timestamp(
      PrimitiveType type, LogicalType flinkType, String path, Slot slot) {
    expect(type.getPrimitiveTypeName() == PrimitiveTypeName.INT64, type, flinkType, path);
    int precision = LogicalTypeChecks.getPrecision(flinkType);
    long unitsPerMilli = unitsPerMilli(type.getLogicalTypeAnnotation(), precision);
    long nanosPerUnit = 1_000_000 / unitsPerMilli;
    if (TimestampData.isCompact(precision)) {
      return new LongConverter(
          slot, (writer, pos, value) -> writer.writeLong(pos, Math.floorDiv(value, unitsPerMilli)));
    }
    return new LongConverter(
        slot,
        (writer, pos, value) ->
            writer.writeTimestamp(
                pos,
                TimestampData.fromEpochMillis(
                    Math.floorDiv(value, unitsPerMilli),
                    (int) (Math.floorMod(value, unitsPerMilli) * nanosPerUnit)),
                precision));
  }

  /**
   * The unit of a timestamp column: its annotation's, or for a bare INT64 (parquet-avro 1.13 does
   * not annotate Avro's local-timestamp types) the unit {@link dev.mortar.logformat.AvroSchemas}
   * gives the precision: milliseconds up to 3, microseconds above.
   */
  private static long unitsPerMilli(LogicalTypeAnnotation annotation, int precision) {
    if (!(annotation instanceof TimestampLogicalTypeAnnotation)) {
      return precision <= 3 ? 1 : 1_000;
    }
    return switch (((TimestampLogicalTypeAnnotation) annotation).getUnit()) {
      case MILLIS -> 1;
      case MICROS -> 1_000;
      case NANOS -> 1_000_000;
    };
  }

  private static boolean isBytes(PrimitiveTypeName physical) {
    return physical == PrimitiveTypeName.BINARY
        || physical == PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY;
  }

  private static void expect(
      boolean accepted, PrimitiveType type, LogicalType flinkType, String path) {
    if (!accepted) {
      throw mismatch(type, flinkType, path);
    }
  }

  private static IllegalArgumentException mismatch(
      PrimitiveType type, LogicalType flinkType, String path) {
    return new IllegalArgumentException(
        "column "
            + path
            + " cannot be read as "
            + flinkType.asSummaryString()
            + ": found Parquet type "
            + type
            + " (see "
            + Converters.class.getName()
            + " for the accepted types)");
  }

  @FunctionalInterface
  private interface IntWrite {
    void write(BinaryWriter writer, int pos, int value);
  }

  @FunctionalInterface
  private interface LongWrite {
    void write(BinaryWriter writer, int pos, long value);
  }

  @FunctionalInterface
  private interface BytesWrite {
    void write(BinaryWriter writer, int pos, byte[] value);
  }

  private static final class IntConverter extends PrimitiveConverter {
    private final Slot slot;
    private final IntWrite write;

    IntConverter(Slot slot, IntWrite write) {
      this.slot = slot;
      this.write = write;
    }

    @Override
    public void addInt(int value) {
      int pos = slot.claim();
      write.write(slot.writer(), pos, value);
    }
  }

  private static final class LongConverter extends PrimitiveConverter {
    private final Slot slot;
    private final LongWrite write;

    LongConverter(Slot slot, LongWrite write) {
      this.slot = slot;
      this.write = write;
    }

    @Override
    public void addLong(long value) {
      int pos = slot.claim();
      write.write(slot.writer(), pos, value);
    }
  }

  /** A BINARY or FIXED_LEN_BYTE_ARRAY column; its dictionary's entries are copied once. */
  private static final class BytesConverter extends PrimitiveConverter {
    private final Slot slot;
    private final BytesWrite write;
    private byte[][] dictionary;

    BytesConverter(Slot slot, BytesWrite write) {
      this.slot = slot;
      this.write = write;
    }

    @Override
    public boolean hasDictionarySupport() {
      return true;
    }

    @Override
    public void setDictionary(Dictionary dictionary) {
      this.dictionary = new byte[dictionary.getMaxId() + 1][];
      for (int id = 0; id < this.dictionary.length; id++) {
        this.dictionary[id] = dictionary.decodeToBinary(id).getBytes();
      }
    }

    @Override
    public void addValueFromDictionary(int dictionaryId) {
      int pos = slot.claim();
      write.write(slot.writer(), pos, dictionary[dictionaryId]);
    }

    @Override
    public void addBinary(Binary value) {
      int pos = slot.claim();
      write.write(slot.writer(), pos, value.getBytesUnsafe());
    }
  }
}
