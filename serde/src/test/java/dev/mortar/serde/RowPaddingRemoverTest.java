package dev.mortar.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mortar.serde.testutil.RandomRows;
import dev.mortar.serde.testutil.Seeds;
import java.io.IOException;
import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.util.Arrays;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.core.memory.MemorySegmentFactory;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.binary.BinaryArrayData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.data.writer.BinaryRowWriter;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.VarBinaryType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;

class RowPaddingRemoverTest {
  /**
   * Property: over random schemas of every type a Hudi table can hold, with nulls anywhere and
   * strings on both sides of the 7-byte inline limit, a row without padding reads back every field
   * equal: written again by Flink's writer from the values it reads, it gives the original's bytes.
   * It is no longer than before and a multiple of 8, a second pass leaves it unchanged, and it
   * crosses the shuffle serializer intact.
   */
  @Test
  void everyFieldReadsBackEqualOverRandomSchemas() throws IOException {
    int schemas = Seeds.size("mortar.serde.schemas", 40);
    int rowsPerSchema = Seeds.size("mortar.serde.rows", 60);
    RandomRows random = new RandomRows(Seeds.seed("row padding removal"));
    for (int s = 0; s < schemas; s++) {
      RowType type = random.rowType(10);
      RowPaddingRemover remover = new RowPaddingRemover(type);
      MortarRowSerializer serializer = new MortarRowSerializer(type);
      for (int i = 0; i < rowsPerSchema; i++) {
        BinaryRowData original = random.binaryRow(type);
        BinaryRowData unpadded = original.copy();
        remover.removePadding(unpadded);

        assertThat(padded(type, unpadded)).as("schema %s", type).isEqualTo(original);
        assertThat(unpadded.getSizeInBytes())
            .isLessThanOrEqualTo(original.getSizeInBytes())
            .isEqualTo((unpadded.getSizeInBytes() + 7) & -8);

        BinaryRowData again = unpadded.copy();
        remover.removePadding(again);
        assertThat(again).as("a second pass changes nothing").isEqualTo(unpadded);

        MortarRow shipped = shipped(serializer, unpadded);
        assertThat(padded(type, shipped.getPayload())).isEqualTo(original);
      }
    }
  }

  @Test
  void stringsLoseTheirPaddingAndInlineStringsStayInTheirSlots() {
    RowType type =
        RowType.of(
            VarCharType.STRING_TYPE,
            new BigIntType(),
            VarCharType.STRING_TYPE,
            new VarBinaryType(VarBinaryType.MAX_LENGTH),
            VarCharType.STRING_TYPE);
    BinaryRowData row =
        toBinary(
            type,
            GenericRowData.of(
                StringData.fromString("y".repeat(9)),
                42L,
                StringData.fromString("short"),
                new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10},
                StringData.fromString("x".repeat(100))));
    int fixedPart = BinaryRowData.calculateFixPartSizeInBytes(5);
    assertThat(row.getSizeInBytes()).isEqualTo(fixedPart + 16 + 16 + 104);

    new RowPaddingRemover(type).removePadding(row);

    assertThat(row.getSizeInBytes()).isEqualTo(fixedPart + 9 + 10 + 100 + 1);
    assertThat(row.getString(0).toString()).isEqualTo("y".repeat(9));
    assertThat(row.getLong(1)).isEqualTo(42L);
    assertThat(row.getString(2).toString()).isEqualTo("short");
    assertThat(row.getBinary(3)).containsExactly(1, 2, 3, 4, 5, 6, 7, 8, 9, 10);
    assertThat(row.getString(4).toString()).isEqualTo("x".repeat(100));
    assertThat(row.getSegments()[0].get(row.getOffset() + fixedPart + 119))
        .as("the row's last byte, where an 'x' was, is padding now")
        .isZero();
  }

  @Test
  void valuesOfOtherTypesMoveWholeBehindAnUnpaddedString() {
    RowType type =
        RowType.of(
            VarCharType.STRING_TYPE,
            new TimestampType(6),
            new DecimalType(30, 2),
            new ArrayType(new IntType()),
            new LocalZonedTimestampType(9),
            VarCharType.STRING_TYPE);
    TimestampData timestamp =
        TimestampData.fromLocalDateTime(LocalDateTime.of(2026, 11, 25, 9, 30, 1, 123_456_000));
    DecimalData decimal =
        DecimalData.fromBigDecimal(new BigDecimal("12345678901234567890.25"), 30, 2);
    GenericRowData input =
        GenericRowData.of(
            StringData.fromString("z".repeat(9)),
            timestamp,
            decimal,
            new GenericArrayData(new int[] {7, 8, 9}),
            null,
            StringData.fromString("w".repeat(10)));
    BinaryRowData row = toBinary(type, input);
    BinaryRowData original = row.copy();
    int arrayBytes = ((BinaryArrayData) original.getArray(3)).getSizeInBytes();

    new RowPaddingRemover(type).removePadding(row);

    int values = 9 + 8 + decimal.toUnscaledBytes().length + arrayBytes + 10;
    assertThat(row.getSizeInBytes())
        .isLessThan(original.getSizeInBytes())
        .isEqualTo((BinaryRowData.calculateFixPartSizeInBytes(6) + values + 7) & -8);
    assertThat(padded(type, row)).isEqualTo(original);
    assertThat(row.getTimestamp(1, 6)).isEqualTo(timestamp);
    assertThat(row.getDecimal(2, 30, 2)).isEqualTo(decimal);
    assertThat(row.getArray(3).toIntArray()).containsExactly(7, 8, 9);
    assertThat(row.isNullAt(4)).isTrue();
    assertThat(row.getString(5).toString()).isEqualTo("w".repeat(10));
  }

  @Test
  void aRowWithItsValuesOutOfFieldOrderIsLeftAsItIs() {
    RowType type = RowType.of(VarCharType.STRING_TYPE, VarCharType.STRING_TYPE);
    BinaryRowData row = new BinaryRowData(2);
    BinaryRowWriter writer = new BinaryRowWriter(row);
    writer.writeString(1, StringData.fromString("second field, written first"));
    writer.writeString(0, StringData.fromString("first field, written second"));
    writer.complete();
    BinaryRowData before = row.copy();

    new RowPaddingRemover(type).removePadding(row);

    assertThat(row).isEqualTo(before);
    assertThat(row.getString(0).toString()).isEqualTo("first field, written second");
  }

  @Test
  void aRowAcrossSegmentsIsLeftAsItIs() {
    RowType type = RowType.of(VarCharType.STRING_TYPE);
    BinaryRowData single = toBinary(type, GenericRowData.of(StringData.fromString("v".repeat(9))));
    byte[] bytes = new byte[single.getSizeInBytes()];
    single.getSegments()[0].get(single.getOffset(), bytes);
    MemorySegment first = MemorySegmentFactory.wrap(Arrays.copyOfRange(bytes, 0, 16));
    MemorySegment second = MemorySegmentFactory.wrap(Arrays.copyOfRange(bytes, 16, 32));
    BinaryRowData spanning = new BinaryRowData(1);
    spanning.pointTo(new MemorySegment[] {first, second}, 0, bytes.length);

    new RowPaddingRemover(type).removePadding(spanning);

    assertThat(spanning.getSizeInBytes()).isEqualTo(bytes.length);
    assertThat(spanning.getString(0).toString()).isEqualTo("v".repeat(9));
  }

  @Test
  void aRowOfAnotherArityIsRefused() {
    RowPaddingRemover remover = new RowPaddingRemover(RowType.of(VarCharType.STRING_TYPE));
    assertThatThrownBy(() -> remover.removePadding(new BinaryRowData(2)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("row has 2 fields, the row type 1");
  }

  private static BinaryRowData toBinary(RowType type, GenericRowData row) {
    return new RowDataSerializer(type).toBinaryRow(row).copy();
  }

  /** The row written again by Flink's writer, field by field, from the values {@code row} reads. */
  private static BinaryRowData padded(RowType type, BinaryRowData row) {
    GenericRowData values = new GenericRowData(row.getRowKind(), type.getFieldCount());
    for (int i = 0; i < type.getFieldCount(); i++) {
      values.setField(i, RowData.createFieldGetter(type.getTypeAt(i), i).getFieldOrNull(row));
    }
    return toBinary(type, values);
  }

  private static MortarRow shipped(MortarRowSerializer serializer, BinaryRowData payload)
      throws IOException {
    DataOutputSerializer out = new DataOutputSerializer(256);
    serializer.serialize(
        new MortarRow(
            BinaryStringData.fromString("k"),
            BinaryStringData.EMPTY_UTF8,
            0,
            Operation.UPDATE,
            payload),
        out);
    return serializer.deserialize(new DataInputDeserializer(out.getCopyOfBuffer()));
  }
}
