package dev.mortar.logformat.read;

import dev.mortar.logformat.SchemaEvolution;
import java.io.IOException;
import java.util.List;
import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.core.memory.MemorySegmentFactory;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.binary.BinaryArrayData;
import org.apache.flink.table.data.binary.BinaryMapData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.data.writer.BinaryArrayWriter;
import org.apache.flink.table.data.writer.BinaryRowWriter;
import org.apache.flink.table.data.writer.BinaryWriter;
import org.apache.flink.table.runtime.typeutils.ArrayDataSerializer;
import org.apache.flink.table.runtime.typeutils.MapDataSerializer;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;

/**
 * Decodes an Avro binary datum of {@code AvroSchemas.of(rowType, name, false)} — what {@link
 * dev.mortar.logformat.BinaryRowAvroEncoder} writes — straight into one reused {@link
 * BinaryRowData}: no {@code GenericRecord}, no {@code String}. Give it {@link StoredRowType#of} to
 * decode a log record with its five meta fields, which are plain nullable strings. The row type is
 * compiled once into a tree of {@link ValueDecoder}s, each owning the writers of its nested arrays,
 * maps and rows.
 *
 * <p>Strings and binaries share Flink's binary layout (inline up to 7 bytes, else offset and
 * length), so both are written with {@code writeString} from a view of the input bytes. Avro
 * timestamps hold millis (precision up to 3, Flink's compact form) or micros; dates, times and
 * compact decimals are ints and longs in the slot as well.
 */
public final class AvroRowDecoder {
  private final AvroInput in = new AvroInput();
  private final RowDecoder root;

  public AvroRowDecoder(RowType rowType) {
    this(rowType, rowType);
  }

  /**
   * A decoder of datums written as {@code writtenType}, an older row type of {@code rowType}
   * ({@link SchemaEvolution}): its values are widened to {@code rowType}'s types, and the fields
   * added after it are null.
   */
  public AvroRowDecoder(RowType rowType, RowType writtenType) {
    if (!SchemaEvolution.readableAs(writtenType, rowType)) {
      throw new IllegalArgumentException(
          "a datum of " + writtenType + " does not read as " + rowType);
    }
    this.root = new RowDecoder(rowType, writtenType, "");
  }

  /**
   * Decodes the datum in {@code bytes[offset, offset + length)}. The row is reused by the next
   * call.
   */
  public BinaryRowData decode(byte[] bytes, int offset, int length) throws IOException {
    in.reset(bytes, offset, length);
    BinaryRowData row = root.decodeRow(in);
    if (in.remaining() != 0) {
      throw new IOException(
          "datum of " + length + " bytes has " + in.remaining() + " bytes after its last field");
    }
    return row;
  }

  /**
   * Whether {@code filter} accepts the string or bytes value of top-level field {@code field} of
   * the datum in {@code bytes[offset, offset + length)}, read without decoding the row: the fields
   * before it are skipped. A null value is accepted (decoding the row then says what is wrong).
   */
  public boolean accepts(byte[] bytes, int offset, int length, int field, KeyFilter filter)
      throws IOException {
    in.reset(bytes, offset, length);
    if (!root.skipTo(in, field)) {
      return true;
    }
    int valueLength = in.readLength();
    return filter.accepts(bytes, in.position(), valueLength);
  }

  /** Decodes one non-null value into position {@code pos} of a row or array writer. */
  private interface ValueDecoder extends AvroInput.Skipper {
    void decode(AvroInput in, BinaryWriter out, int pos) throws IOException;
  }

  @FunctionalInterface
  private interface Decode {
    void decode(AvroInput in, BinaryWriter out, int pos) throws IOException;
  }

  private static ValueDecoder of(Decode decode, AvroInput.Skipper skipper) {
    return new ValueDecoder() {
      @Override
      public void decode(AvroInput in, BinaryWriter out, int pos) throws IOException {
        decode.decode(in, out, pos);
      }

      @Override
      public void skip(AvroInput in) throws IOException {
        skipper.skip(in);
      }
    };
  }

  private static final AvroInput.Skipper VARINT = AvroInput::readLong;

  private static final ValueDecoder INT =
      of((in, out, pos) -> out.writeInt(pos, in.readInt()), VARINT);

  private static final ValueDecoder LONG =
      of((in, out, pos) -> out.writeLong(pos, in.readLong()), VARINT);

  private static final ValueDecoder BYTES =
      of((in, out, pos) -> out.writeString(pos, in.readStringView()), AvroInput::skipString);

  /**
   * The decoder of a value written as {@code written} into a field of {@code type}: the type's own,
   * or for a field widened since ({@link SchemaEvolution#isPromotion}) one that reads the narrower
   * value and writes it widened.
   */
  private static ValueDecoder decoderFor(LogicalType type, LogicalType written, String path) {
    if (!SchemaEvolution.isPromotion(written, type)) {
      return decoderFor(type, path);
    }
    if (type.getTypeRoot() == LogicalTypeRoot.VARCHAR) {
      return asString(written);
    }
    boolean toDouble = type.getTypeRoot() == LogicalTypeRoot.DOUBLE;
    switch (written.getTypeRoot()) {
      case INTEGER:
      case BIGINT:
        return type.getTypeRoot() == LogicalTypeRoot.BIGINT
            ? LONG
            : toDouble
                ? of((in, out, pos) -> out.writeDouble(pos, in.readLong()), VARINT)
                : of((in, out, pos) -> out.writeFloat(pos, in.readLong()), VARINT);
      case FLOAT:
        return of(
            (in, out, pos) -> out.writeDouble(pos, SchemaEvolution.widen(in.readFloat())),
            in -> in.skip(4));
      default:
        // a decimal of fewer digits and the same scale: the same unscaled bytes
        return decoderFor(type, path);
    }
  }

  /** A number written before its column became a STRING: its Java {@code toString}. */
  private static ValueDecoder asString(LogicalType written) {
    return switch (written.getTypeRoot()) {
      case INTEGER ->
          of(
              (in, out, pos) -> out.writeString(pos, string(Integer.toString(in.readInt()))),
              VARINT);
      case BIGINT ->
          of((in, out, pos) -> out.writeString(pos, string(Long.toString(in.readLong()))), VARINT);
      case FLOAT ->
          of(
              (in, out, pos) -> out.writeString(pos, string(Float.toString(in.readFloat()))),
              in -> in.skip(4));
      default ->
          of(
              (in, out, pos) -> out.writeString(pos, string(Double.toString(in.readDouble()))),
              in -> in.skip(8));
    };
  }

  private static BinaryStringData string(String value) {
    return BinaryStringData.fromString(value);
  }

  private static ValueDecoder decoderFor(LogicalType type, String path) {
    switch (type.getTypeRoot()) {
      case BOOLEAN:
        return of((in, out, pos) -> out.writeBoolean(pos, in.readBoolean()), in -> in.skip(1));
      case TINYINT:
        return of((in, out, pos) -> out.writeByte(pos, (byte) in.readInt()), VARINT);
      case SMALLINT:
        return of((in, out, pos) -> out.writeShort(pos, (short) in.readInt()), VARINT);
      case INTEGER:
      case DATE:
      case TIME_WITHOUT_TIME_ZONE:
        return INT;
      case BIGINT:
        return LONG;
      case FLOAT:
        return of((in, out, pos) -> out.writeFloat(pos, in.readFloat()), in -> in.skip(4));
      case DOUBLE:
        return of((in, out, pos) -> out.writeDouble(pos, in.readDouble()), in -> in.skip(8));
      case CHAR:
      case VARCHAR:
      case BINARY:
      case VARBINARY:
        return BYTES;
      case DECIMAL:
        return decimalDecoder((DecimalType) type);
      case TIMESTAMP_WITHOUT_TIME_ZONE:
        return timestampDecoder(((TimestampType) type).getPrecision());
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
        return timestampDecoder(((LocalZonedTimestampType) type).getPrecision());
      case ARRAY:
        return new ArrayDecoder((ArrayType) type, path);
      case MAP:
        return new MapDecoder((MapType) type, path);
      case ROW:
        return new RowDecoder((RowType) type, path);
      default:
        throw new IllegalArgumentException(
            "field " + path + " of type " + type.asSummaryString() + " has no Avro decoding");
    }
  }

  private static ValueDecoder decimalDecoder(DecimalType type) {
    int precision = type.getPrecision();
    if (DecimalData.isCompact(precision)) {
      return of((in, out, pos) -> out.writeLong(pos, in.readUnscaledLong()), AvroInput::skipString);
    }
    int scale = type.getScale();
    return of(
        (in, out, pos) ->
            out.writeDecimal(
                pos, DecimalData.fromUnscaledBytes(in.readBytes(), precision, scale), precision),
        AvroInput::skipString);
  }

  /** Precision up to 3: epoch millis, Flink's compact form. Above: epoch micros. */
  private static ValueDecoder timestampDecoder(int precision) {
    if (TimestampData.isCompact(precision)) {
      return LONG;
    }
    return of(
        (in, out, pos) -> {
          long micros = in.readLong();
          TimestampData value =
              TimestampData.fromEpochMillis(
                  Math.floorDiv(micros, 1000), (int) Math.floorMod(micros, 1000) * 1000);
          out.writeTimestamp(pos, value, precision);
        },
        VARINT);
  }

  /** A record: each field in order, a nullable one behind its union branch. */
  private static final class RowDecoder implements ValueDecoder {
    private final ValueDecoder[] fields;
    private final boolean[] nullable;
    private final String[] paths;
    private final BinaryRowData row;
    private final BinaryRowWriter writer;
    private final RowDataSerializer serializer;

    /** The fields the datum holds, the first of the row's; the others are null. */
    private final int present;

    RowDecoder(RowType rowType, String path) {
      this(rowType, rowType, path);
    }

    /** A decoder of {@code rowType} for datums written as {@code writtenType}, its older type. */
    RowDecoder(RowType rowType, RowType writtenType, String path) {
      this.present = writtenType.getFieldCount();
      List<RowType.RowField> rowFields = rowType.getFields();
      int arity = rowFields.size();
      this.fields = new ValueDecoder[arity];
      this.nullable = new boolean[arity];
      this.paths = new String[arity];
      for (int i = 0; i < arity; i++) {
        RowType.RowField field = rowFields.get(i);
        paths[i] = path.isEmpty() ? field.getName() : path + "." + field.getName();
        LogicalType written = i < present ? writtenType.getTypeAt(i) : field.getType();
        fields[i] = decoderFor(field.getType(), written, paths[i]);
        nullable[i] = field.getType().isNullable();
      }
      this.row = new BinaryRowData(arity);
      this.writer = new BinaryRowWriter(row);
      this.serializer = new RowDataSerializer(rowType);
    }

    BinaryRowData decodeRow(AvroInput in) throws IOException {
      writer.reset();
      for (int i = 0; i < present; i++) {
        if (nullable[i] && in.readUnionBranch(paths[i]) == 0) {
          writer.setNullAt(i);
        } else {
          fields[i].decode(in, writer, i);
        }
      }
      for (int i = present; i < fields.length; i++) {
        writer.setNullAt(i);
      }
      writer.complete();
      return row;
    }

    @Override
    public void decode(AvroInput in, BinaryWriter out, int pos) throws IOException {
      out.writeRow(pos, decodeRow(in), serializer);
    }

    @Override
    public void skip(AvroInput in) throws IOException {
      skipFields(in, present);
    }

    /**
     * Skips the fields before {@code field} and its union branch; false when its value is null,
     * true when the value is next in {@code in}.
     */
    boolean skipTo(AvroInput in, int field) throws IOException {
      skipFields(in, field);
      return !nullable[field] || in.readUnionBranch(paths[field]) == 1;
    }

    private void skipFields(AvroInput in, int count) throws IOException {
      for (int i = 0; i < count; i++) {
        if (!nullable[i] || in.readUnionBranch(paths[i]) == 1) {
          fields[i].skip(in);
        }
      }
    }
  }

  /**
   * An array or map: Avro blocks of items. A Flink array is sized when it is started, so the item
   * count must be known first: the first block's count is taken as the total, and only when a
   * second block follows (Mortar writes one; other writers may cut several) are the blocks counted
   * by skipping and decoded again.
   */
  private abstract static class BlockDecoder implements ValueDecoder {
    /** Starts the Flink arrays for {@code count} items. */
    abstract void start(int count);

    abstract void decodeItem(AvroInput in, int index) throws IOException;

    abstract void skipItem(AvroInput in) throws IOException;

    /** Completes the Flink arrays and writes the value to {@code out}. */
    abstract void finish(BinaryWriter out, int pos);

    @Override
    public void decode(AvroInput in, BinaryWriter out, int pos) throws IOException {
      int start = in.position();
      int count = in.readBlockCount();
      start(count);
      decodeItems(in, 0, count);
      if (count != 0 && in.readBlockCount() != 0) {
        in.seek(start);
        start(in.skipBlocks(this::skipItem));
        in.seek(start);
        for (int index = 0, n; (n = in.readBlockCount()) != 0; index += n) {
          decodeItems(in, index, n);
        }
      }
      finish(out, pos);
    }

    private void decodeItems(AvroInput in, int first, int count) throws IOException {
      for (int i = first; i < first + count; i++) {
        decodeItem(in, i);
      }
    }

    @Override
    public void skip(AvroInput in) throws IOException {
      in.skipBlocks(this::skipItem);
    }
  }

  /** A Flink array being filled: reuses its writer while the element count stays the same. */
  private static final class ArrayBuilder {
    private final BinaryArrayData array = new BinaryArrayData();
    private final int elementSize;
    private BinaryArrayWriter writer;

    ArrayBuilder(LogicalType elementType) {
      this.elementSize = BinaryArrayData.calculateFixLengthPartSize(elementType);
    }

    BinaryArrayWriter start(int count) {
      if (writer == null || writer.getNumElements() != count) {
        writer = new BinaryArrayWriter(array, count, elementSize);
      } else {
        writer.reset();
      }
      return writer;
    }

    BinaryArrayData complete() {
      writer.complete();
      return array;
    }
  }

  /** An array element or map value: the value, behind a union branch when it is nullable. */
  private static final class Element {
    private final ValueDecoder value;
    private final boolean nullable;
    private final BinaryArrayWriter.NullSetter nullSetter;
    private final String path;

    Element(LogicalType type, String path) {
      this.path = path;
      this.value = decoderFor(type, path);
      this.nullable = type.isNullable();
      this.nullSetter = BinaryArrayWriter.createNullSetter(type);
    }

    void decode(AvroInput in, BinaryArrayWriter out, int index) throws IOException {
      if (nullable && in.readUnionBranch(path) == 0) {
        nullSetter.setNull(out, index);
      } else {
        value.decode(in, out, index);
      }
    }

    void skip(AvroInput in) throws IOException {
      if (!nullable || in.readUnionBranch(path) == 1) {
        value.skip(in);
      }
    }
  }

  private static final class ArrayDecoder extends BlockDecoder {
    private final Element element;
    private final ArrayBuilder elements;
    private final ArrayDataSerializer serializer;
    private BinaryArrayWriter writer;

    ArrayDecoder(ArrayType type, String path) {
      this.element = new Element(type.getElementType(), path + "[]");
      this.elements = new ArrayBuilder(type.getElementType());
      this.serializer = new ArrayDataSerializer(type.getElementType());
    }

    @Override
    void start(int count) {
      writer = elements.start(count);
    }

    @Override
    void decodeItem(AvroInput in, int index) throws IOException {
      element.decode(in, writer, index);
    }

    @Override
    void skipItem(AvroInput in) throws IOException {
      element.skip(in);
    }

    @Override
    void finish(BinaryWriter out, int pos) {
      out.writeArray(pos, elements.complete(), serializer);
    }
  }

  /**
   * A map with string keys. Flink's map is the size of its key array in bytes (int32), the key
   * array, the value array; it is assembled in a reused buffer.
   */
  private static final class MapDecoder extends BlockDecoder {
    private final Element value;
    private final ArrayBuilder keys;
    private final ArrayBuilder values;
    private final MapDataSerializer serializer;
    private final BinaryMapData map = new BinaryMapData();
    private MemorySegment mapBytes = MemorySegmentFactory.wrap(new byte[64]);
    private BinaryArrayWriter keyWriter;
    private BinaryArrayWriter valueWriter;

    MapDecoder(MapType type, String path) {
      this.value = new Element(type.getValueType(), path + "{}");
      this.keys = new ArrayBuilder(type.getKeyType());
      this.values = new ArrayBuilder(type.getValueType());
      this.serializer = new MapDataSerializer(type.getKeyType(), type.getValueType());
    }

    @Override
    void start(int count) {
      keyWriter = keys.start(count);
      valueWriter = values.start(count);
    }

    @Override
    void decodeItem(AvroInput in, int index) throws IOException {
      keyWriter.writeString(index, in.readStringView());
      value.decode(in, valueWriter, index);
    }

    @Override
    void skipItem(AvroInput in) throws IOException {
      in.skipString();
      value.skip(in);
    }

    @Override
    void finish(BinaryWriter out, int pos) {
      BinaryArrayData keyArray = keys.complete();
      BinaryArrayData valueArray = values.complete();
      int keySize = keyArray.getSizeInBytes();
      int size = 4 + keySize + valueArray.getSizeInBytes();
      if (size > mapBytes.size()) {
        mapBytes = MemorySegmentFactory.wrap(new byte[Math.max(size, 2 * mapBytes.size())]);
      }
      mapBytes.putInt(0, keySize);
      keyArray.getSegments()[0].copyTo(keyArray.getOffset(), mapBytes, 4, keySize);
      valueArray.getSegments()[0].copyTo(
          valueArray.getOffset(), mapBytes, 4 + keySize, valueArray.getSizeInBytes());
      map.pointTo(mapBytes, 0, size);
      out.writeMap(pos, map, serializer);
    }
  }
}
