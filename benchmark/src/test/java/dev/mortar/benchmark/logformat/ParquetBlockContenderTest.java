package dev.mortar.benchmark.logformat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.withinPercentage;

import dev.mortar.benchmark.workload.WorkloadSchema;
import dev.mortar.logformat.ParquetCodec;
import dev.mortar.testing.RandomRows;
import dev.mortar.testing.Seeds;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.junit.jupiter.api.Test;

/**
 * Mortar's Parquet blocks are byte for byte those of the path before issue 30 ({@link
 * ParquetBlockContender#ROW_DATA_GETTERS}), for random rows of every type and for the workloads;
 * parquet-mr's floor writes the blocks of Mortar's default writer, and Paimon's writer a file of
 * the same columns and rows, of a size near Mortar's.
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
    forEveryWorkloadSetting(
        300,
        (input, codec, dictionary, what) ->
            assertSameBlocks(
                ParquetBlockContender.MORTAR.prepare(input, codec, dictionary),
                ParquetBlockContender.ROW_DATA_GETTERS.prepare(input, codec, dictionary),
                what));
  }

  @Test
  void floorWritesTheBlocksOfMortarsDefaultWriter() throws Exception {
    forEveryWorkloadSetting(
        1_500,
        (input, codec, dictionary, what) ->
            assertSameBlocks(
                ParquetBlockContender.PARQUET_MR_FLOOR.prepare(input, codec, dictionary),
                ParquetBlockContender.MORTAR_DICTIONARY_PER_COLUMN.prepare(
                    input, codec, dictionary),
                what));
  }

  @Test
  void paimonWritesTheSameColumnsAndRowsInASizeNearMortars() throws Exception {
    forEveryWorkloadSetting(
        1_500,
        (input, codec, dictionary, what) -> {
          ParquetBlockContender.Encoder mortar =
              ParquetBlockContender.MORTAR.prepare(input, codec, dictionary);
          ParquetBlockContender.Encoder paimon =
              ParquetBlockContender.PAIMON.prepare(input, codec, dictionary);
          int mortarSize = mortar.encodeBlock();
          int paimonSize = paimon.encodeBlock();
          ParquetMetadata mortarFooter = ParquetFooters.read(mortar.lastBlock());
          ParquetMetadata paimonFooter = ParquetFooters.read(paimon.lastBlock());
          assertThat(paimonFooter.getFileMetaData().getSchema().getColumns())
              .as(what)
              .isEqualTo(mortarFooter.getFileMetaData().getSchema().getColumns());
          assertThat(rowCount(paimonFooter)).as(what).isEqualTo(input.rows.size());
          // The same pages; the footers differ (Paimon's field ids, Mortar's Avro schema).
          assertThat(paimonSize).as(what).isCloseTo(mortarSize, withinPercentage(5));
          // Paimon got the dictionary setting: the same columns as Mortar's keep one, among them
          // the constant commit time exactly when the dictionary is on.
          Set<String> withoutDictionary =
              ParquetFooters.columnsWithoutDictionary(paimon.lastBlock());
          assertThat(withoutDictionary)
              .as(what)
              .isEqualTo(ParquetFooters.columnsWithoutDictionary(mortar.lastBlock()));
          assertThat(withoutDictionary.contains("_hoodie_commit_time"))
              .as(what)
              .isEqualTo(!dictionary);
        });
  }

  /** A check of one workload block at one codec and dictionary setting; {@code what} names them. */
  @FunctionalInterface
  private interface WorkloadCheck {
    void check(BlockInput input, ParquetCodec codec, boolean dictionary, String what)
        throws Exception;
  }

  /** Runs {@code check} on a block of {@code records} of Schema1 and Schema3 at every setting. */
  private static void forEveryWorkloadSetting(int records, WorkloadCheck check) throws Exception {
    for (WorkloadSchema schema :
        new WorkloadSchema[] {WorkloadSchema.SCHEMA1, WorkloadSchema.SCHEMA3}) {
      BlockInput input = BlockInput.generate(schema, records, 7);
      for (ParquetCodec codec : CODECS) {
        for (boolean dictionary : new boolean[] {true, false}) {
          check.check(input, codec, dictionary, schema + " " + codec + " dictionary " + dictionary);
        }
      }
    }
  }

  private static long rowCount(ParquetMetadata footer) {
    return footer.getBlocks().stream().mapToLong(BlockMetaData::getRowCount).sum();
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
