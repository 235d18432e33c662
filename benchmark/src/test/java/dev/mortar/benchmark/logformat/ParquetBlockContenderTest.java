package dev.mortar.benchmark.logformat;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mortar.benchmark.workload.WorkloadSchema;
import dev.mortar.logformat.ParquetCodec;
import dev.mortar.testing.RandomRows;
import dev.mortar.testing.Seeds;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;

/**
 * Mortar's Parquet blocks are byte for byte those of the path before issue 30 ({@link
 * ParquetBlockContender#ROW_DATA_GETTERS}), for random rows of every type and for the workloads.
 */
class ParquetBlockContenderTest {
  private static final ParquetCodec[] CODECS = {ParquetCodec.SNAPPY, ParquetCodec.NONE};

  @Test
  void randomRowsOfEveryTypeWriteTheSameBlock() throws Exception {
    long seed = Seeds.seed("randomRowsOfEveryTypeWriteTheSameBlock");
    RandomRows random = new RandomRows(seed);
    int schemas = Seeds.size("mortar.iterations", 6) * 2;
    for (int s = 0; s < schemas; s++) {
      RowType rowType = s == 0 ? random.tableRowTypeOfEveryKind() : random.tableRowType(1 + s % 12);
      List<BinaryRowData> rows = new ArrayList<>();
      List<BinaryStringData> keys = new ArrayList<>();
      for (int r = 0; r < 300; r++) {
        rows.add(RandomRows.toBinary(rowType, random.tableRow(rowType, r)));
        keys.add(BinaryStringData.fromString("key-" + r));
      }
      for (ParquetCodec codec : CODECS) {
        for (boolean dictionary : new boolean[] {true, false}) {
          String what = rowType + " " + codec + " dictionary " + dictionary + ", seed " + seed;
          assertSameBlocks(
              ParquetBlockContender.MORTAR.prepare(rowType, rows, keys, codec, dictionary),
              ParquetBlockContender.ROW_DATA_GETTERS.prepare(
                  rowType, rows, keys, codec, dictionary),
              what);
        }
      }
    }
  }

  @Test
  void workloadRowsWriteTheSameBlock() throws Exception {
    for (WorkloadSchema schema :
        new WorkloadSchema[] {WorkloadSchema.SCHEMA1, WorkloadSchema.SCHEMA3}) {
      BlockInput input = BlockInput.generate(schema, 300, 7);
      for (boolean dictionary : new boolean[] {true, false}) {
        assertSameBlocks(
            ParquetBlockContender.MORTAR.prepare(input, ParquetCodec.SNAPPY, dictionary),
            ParquetBlockContender.ROW_DATA_GETTERS.prepare(input, ParquetCodec.SNAPPY, dictionary),
            schema + " dictionary " + dictionary);
      }
    }
  }

  /** Two blocks through each encoder: reuse must not leak state from one block to the next. */
  private static void assertSameBlocks(
      ParquetBlockContender.Encoder mortar, ParquetBlockContender.Encoder reference, String what)
      throws Exception {
    for (int block = 0; block < 2; block++) {
      int size = reference.encodeBlock();
      assertThat(mortar.encodeBlock()).as("block %d size, %s", block, what).isEqualTo(size);
      assertThat(mortar.lastBlock())
          .as("block %d, %s", block, what)
          .isEqualTo(reference.lastBlock());
    }
  }
}
