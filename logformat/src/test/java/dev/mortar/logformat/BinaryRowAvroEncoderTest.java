package dev.mortar.logformat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mortar.serde.PayloadWriter;
import dev.mortar.testing.RandomRows;
import dev.mortar.testing.Seeds;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.avro.Schema;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;

/** Our encoder's bytes equal Avro's own GenericDatumWriter's, for random schemas and rows. */
class BinaryRowAvroEncoderTest {

  @Test
  void bytesEqualAvrosGenericDatumWriter() throws Exception {
    long seed = Seeds.seed("bytesEqualAvrosGenericDatumWriter");
    RandomRows random = new RandomRows(seed);
    BlockBuffer out = new BlockBuffer(16);
    int schemas = Seeds.size("mortar.iterations", 6) * 10;
    for (int s = 0; s < schemas; s++) {
      RowType rowType = s == 0 ? random.tableRowTypeOfEveryKind() : random.tableRowType(1 + s % 12);
      Schema schema = AvroSchemas.of(rowType, "record", false);
      BinaryRowAvroEncoder encoder = new BinaryRowAvroEncoder(rowType);
      for (int r = 0; r < 50; r++) {
        GenericRowData row = random.tableRow(rowType, r);
        BinaryRowData binary = RandomRows.toBinary(rowType, row);
        out.reset();
        encoder.encode(binary, out);
        byte[] expected = AvroReference.encode(schema, rowType, row);
        assertThat(Arrays.copyOf(out.array(), out.size()))
            .as("row %d of schema %s (seed %d)", r, rowType, seed)
            .isEqualTo(expected);
      }
    }
  }

  /** Rows in every layout the writer may get ({@link SegmentLayouts}) encode like Flink's rows. */
  @Test
  void rowsWithoutPaddingOrAcrossSegmentsEncodeLikeFlinksRows() throws Exception {
    long seed = Seeds.seed("rowsWithoutPaddingOrAcrossSegmentsEncodeLikeFlinksRows");
    RandomRows random = new RandomRows(seed);
    SplittableRandom split = new SplittableRandom(seed);
    BlockBuffer expected = new BlockBuffer(16);
    BlockBuffer actual = new BlockBuffer(16);
    for (int s = 0; s < 20; s++) {
      RowType rowType = s == 0 ? random.tableRowTypeOfEveryKind() : random.tableRowType(1 + s % 12);
      BinaryRowAvroEncoder encoder = new BinaryRowAvroEncoder(rowType);
      PayloadWriter payloadWriter = new PayloadWriter(rowType);
      for (int r = 0; r < 20; r++) {
        GenericRowData values = random.tableRow(rowType, r);
        BinaryRowData flinks = RandomRows.toBinary(rowType, values);
        expected.reset();
        encoder.encode(flinks, expected);
        List<BinaryRowData> layouts =
            SegmentLayouts.otherLayouts(flinks, values, payloadWriter, split);
        for (int layout = 0; layout < layouts.size(); layout++) {
          actual.reset();
          encoder.encode(layouts.get(layout), actual);
          assertThat(bytesOf(actual))
              .as("row %d of %s in layout %d, seed %d", r, rowType, layout, seed)
              .isEqualTo(bytesOf(expected));
        }
      }
    }
  }

  private static byte[] bytesOf(BlockBuffer buffer) {
    return Arrays.copyOf(buffer.array(), buffer.size());
  }

  @Test
  void nullInANotNullFieldNamesTheField() {
    RowType rowType =
        RowType.of(
            new LogicalType[] {new BigIntType(false), new VarCharType(false, 10)},
            new String[] {"id", "name"});
    GenericRowData row = GenericRowData.of(1L, null);
    BinaryRowData binary = RandomRows.toBinary(rowType, row);
    assertThatThrownBy(() -> new BinaryRowAvroEncoder(rowType).encode(binary, new BlockBuffer(16)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("field name is NOT NULL in the row type but null in the row");
  }
}
