package dev.mortar.serde;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mortar.testing.RandomRows;
import dev.mortar.testing.Seeds;
import java.io.IOException;
import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.util.Random;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericArrayData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.binary.BinaryArrayData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinaryStringData;
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
import org.apache.flink.types.RowKind;
import org.junit.jupiter.api.Test;

class PayloadWriterTest {
  /**
   * Property: over random schemas of every type a Hudi table can hold, with nulls anywhere, every
   * row kind and strings on both sides of the 7-byte inline limit (as Java strings and as UTF-8
   * bytes), the payload reads back every field as written: written again by Flink's own writer from
   * the values it reads, it gives the bytes Flink's writer makes of the input. It is never longer
   * than Flink's row, a multiple of 8, and crosses the shuffle serializer intact. One writer serves
   * each schema's rows in turn, so nothing of a longer row may leak into the next.
   */
  @Test
  void everyFieldReadsBackAsFlinksWriterWritesItOverRandomSchemas() throws IOException {
    long seed = Seeds.seed("PayloadWriterTest");
    int schemas = Seeds.size("mortar.serde.schemas", 40);
    int rowsPerSchema = Seeds.size("mortar.serde.rows", 60);
    RandomRows random = new RandomRows(seed);
    Random kinds = new Random(seed);
    for (int s = 0; s < schemas; s++) {
      RowType type = random.rowType(10);
      PayloadWriter writer = new PayloadWriter(type);
      MortarRowSerializer serializer = new MortarRowSerializer(type);
      for (int i = 0; i < rowsPerSchema; i++) {
        GenericRowData generated = random.genericRow(type);
        generated.setRowKind(RowKind.values()[kinds.nextInt(RowKind.values().length)]);
        BinaryRowData payload;
        BinaryRowData flinks;
        if (i % 2 == 0) {
          // Strings as Java strings only, as generated (Flink's writer would encode them in place).
          payload = writer.toBinaryRow(generated);
          flinks = flinksRow(type, generated);
        } else {
          // Strings as UTF-8 bytes, as read from a binary row.
          flinks = flinksRow(type, generated);
          payload = writer.toBinaryRow(valuesOf(type, flinks));
        }

        assertThat(flinksRow(type, payload)).as("seed %s, schema %s", seed, type).isEqualTo(flinks);
        assertThat(payload.getSizeInBytes())
            .isLessThanOrEqualTo(flinks.getSizeInBytes())
            .isEqualTo((payload.getSizeInBytes() + 7) & -8);
        assertThat(flinksRow(type, shipped(serializer, payload))).isEqualTo(flinks);
      }
    }
  }

  @Test
  void aBinaryRowIsReturnedAsItIs() {
    RowType type = RowType.of(VarCharType.STRING_TYPE);
    BinaryRowData binary = flinksRow(type, GenericRowData.of(StringData.fromString("x".repeat(9))));
    assertThat(new PayloadWriter(type).toBinaryRow(binary)).isSameAs(binary);
  }

  @Test
  void stringsAndBinariesLieBackToBackAndShortOnesStayInTheirSlots() {
    RowType type =
        RowType.of(
            VarCharType.STRING_TYPE,
            new BigIntType(),
            VarCharType.STRING_TYPE,
            new VarBinaryType(VarBinaryType.MAX_LENGTH),
            VarCharType.STRING_TYPE);
    GenericRowData input =
        GenericRowData.of(
            StringData.fromString("y".repeat(9)),
            42L,
            StringData.fromString("short"),
            new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10},
            StringData.fromString("x".repeat(100)));
    int fixedPart = BinaryRowData.calculateFixPartSizeInBytes(5);
    assertThat(flinksRow(type, input).getSizeInBytes()).isEqualTo(fixedPart + 16 + 16 + 104);

    BinaryRowData payload = new PayloadWriter(type).toBinaryRow(input);

    assertThat(payload.getSizeInBytes()).isEqualTo(fixedPart + 9 + 10 + 100 + 1);
    assertThat(payload.getString(0).toString()).isEqualTo("y".repeat(9));
    assertThat(payload.getLong(1)).isEqualTo(42L);
    assertThat(payload.getString(2).toString()).isEqualTo("short");
    assertThat(payload.getBinary(3)).containsExactly(1, 2, 3, 4, 5, 6, 7, 8, 9, 10);
    assertThat(payload.getString(4).toString()).isEqualTo("x".repeat(100));
    assertThat(payload.getSegments()[0].get(payload.getOffset() + fixedPart + 119))
        .as("the row's end is zero-padded")
        .isZero();
  }

  /**
   * Values of other types keep Flink's encoding and padding, behind an unpadded string; a nested
   * array moves as a whole.
   */
  @Test
  void valuesOfOtherTypesKeepFlinksLayoutBehindUnpaddedStrings() {
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
    BinaryRowData flinks = flinksRow(type, input);
    int arrayBytes = ((BinaryArrayData) flinks.getArray(3)).getSizeInBytes();

    BinaryRowData payload = new PayloadWriter(type).toBinaryRow(input);

    int values = 9 + 8 + 16 + ((arrayBytes + 7) & -8) + 10;
    assertThat(payload.getSizeInBytes())
        .isEqualTo((BinaryRowData.calculateFixPartSizeInBytes(6) + values + 7) & -8);
    assertThat(payload.getTimestamp(1, 6)).isEqualTo(timestamp);
    assertThat(payload.getDecimal(2, 30, 2)).isEqualTo(decimal);
    assertThat(payload.getArray(3).toIntArray()).containsExactly(7, 8, 9);
    assertThat(payload.isNullAt(4)).isTrue();
    assertThat(payload.getString(5).toString()).isEqualTo("w".repeat(10));
    assertThat(flinksRow(type, payload)).isEqualTo(flinks);
  }

  /**
   * Flink's binary row of {@code row}, by a fresh writer (a reused one leaves stale slot bytes).
   */
  private static BinaryRowData flinksRow(RowType type, RowData row) {
    return new RowDataSerializer(type).toBinaryRow(valuesOf(type, row)).copy();
  }

  /** The values {@code row} reads, in a generic row of the same kind. */
  private static GenericRowData valuesOf(RowType type, RowData row) {
    GenericRowData values = new GenericRowData(row.getRowKind(), type.getFieldCount());
    for (int i = 0; i < type.getFieldCount(); i++) {
      values.setField(i, RowData.createFieldGetter(type.getTypeAt(i), i).getFieldOrNull(row));
    }
    return values;
  }

  private static BinaryRowData shipped(MortarRowSerializer serializer, BinaryRowData payload)
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
    return serializer.deserialize(new DataInputDeserializer(out.getCopyOfBuffer())).getPayload();
  }
}
