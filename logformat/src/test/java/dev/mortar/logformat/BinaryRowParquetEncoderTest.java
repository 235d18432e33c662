package dev.mortar.logformat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mortar.serde.PayloadWriter;
import dev.mortar.testing.RandomRows;
import dev.mortar.testing.Seeds;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.parquet.io.api.Binary;
import org.junit.jupiter.api.Test;

/**
 * The Parquet encoder reads rows in every layout alike. That its blocks equal those of the path
 * through {@code RowData} getters is {@code ParquetBlockContenderTest}'s (benchmark module); that
 * Hudi reads them back is {@link LogFileWriterRoundTripTest}'s.
 */
class BinaryRowParquetEncoderTest {

  @Test
  void rowsInEveryLayoutWriteTheBlockOfFlinksRows() throws Exception {
    long seed = Seeds.seed("rowsInEveryLayoutWriteTheBlockOfFlinksRows");
    RandomRows random = new RandomRows(seed);
    SplittableRandom split = new SplittableRandom(seed);
    for (int s = 0; s < 12; s++) {
      RowType rowType = s == 0 ? random.tableRowTypeOfEveryKind() : random.tableRowType(1 + s % 12);
      PayloadWriter payloadWriter = new PayloadWriter(rowType);
      List<BinaryRowData> flinks = new ArrayList<>();
      List<List<BinaryRowData>> layouts = new ArrayList<>();
      for (int r = 0; r < 40; r++) {
        GenericRowData values = random.tableRow(rowType, r);
        BinaryRowData flinksRow = RandomRows.toBinary(rowType, values);
        flinks.add(flinksRow);
        List<BinaryRowData> others =
            SegmentLayouts.otherLayouts(flinksRow, values, payloadWriter, split);
        for (int layout = 0; layout < others.size(); layout++) {
          if (layouts.size() == layout) {
            layouts.add(new ArrayList<>());
          }
          layouts.get(layout).add(others.get(layout));
        }
      }
      byte[] expected = block(rowType, flinks);
      for (int layout = 0; layout < layouts.size(); layout++) {
        assertThat(block(rowType, layouts.get(layout)))
            .as("layout %d of %s, seed %d", layout, rowType, seed)
            .isEqualTo(expected);
      }
    }
  }

  private static byte[] block(RowType rowType, List<BinaryRowData> rows) throws Exception {
    ParquetBlockBuilder builder =
        new ParquetBlockBuilder(
            rowType,
            AvroSchemas.of(rowType, "record", true),
            new MetaFieldValues("20260101000000000", "0-1-0", "p", "f-0"),
            ParquetCodec.NONE,
            true,
            false,
            new BlockScratch(new BlockBuffer(1 << 16), new ParquetWriterResources()));
    for (int i = 0; i < rows.size(); i++) {
      builder.add(BinaryStringData.fromString("k" + i), i, rows.get(i));
    }
    BlockBuffer content = builder.finishBlock();
    return Arrays.copyOf(content.array(), content.size());
  }

  @Test
  void compactDecimalsAreTheBytesOfBigIntegerToByteArray() {
    long seed = Seeds.seed("compactDecimalsAreTheBytesOfBigIntegerToByteArray");
    SplittableRandom split = new SplittableRandom(seed);
    List<Long> values =
        new ArrayList<>(
            List.of(
                0L, 1L, -1L, 127L, 128L, -128L, -129L, 255L, 256L, Long.MAX_VALUE, Long.MIN_VALUE));
    for (int i = 0; i < 1000; i++) {
      values.add(split.nextLong() >> split.nextInt(64));
    }
    ParquetBinaries binaries = new ParquetBinaries();
    for (long value : values) {
      Binary binary = binaries.compactDecimal(value);
      assertThat(binary.getBytes())
          .as("%d, seed %d", value, seed)
          .isEqualTo(BigInteger.valueOf(value).toByteArray());
    }
  }

  @Test
  void nullInANotNullFieldNamesTheField() {
    RowType rowType =
        RowType.of(
            new LogicalType[] {new BigIntType(false), new VarCharType(false, 10)},
            new String[] {"id", "name"});
    BinaryRowData row = RandomRows.toBinary(rowType, GenericRowData.of(1L, null));
    assertThatThrownBy(() -> block(rowType, List.of(row)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("field name is NOT NULL in the row type but null in the row");
  }
}
