package dev.mortar.logformat;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mortar.testing.Seeds;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.data.writer.BinaryRowWriter;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.BooleanType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The dictionary decision of a block: columns whose first values rarely repeat go without a
 * dictionary, the others keep it and get a dictionary page on disk.
 */
class DictionaryDecisionTest {
  private static final String[] COUNTRIES = {"de", "fr", "it", "es", "nl", "pl", "se", "dk"};
  private static final RowType ROW_TYPE =
      RowType.of(
          new LogicalType[] {
            VarCharType.STRING_TYPE,
            VarCharType.STRING_TYPE,
            new BigIntType(),
            new BigIntType(),
            new IntType(),
            new TimestampType(6),
            new BooleanType(),
            VarCharType.STRING_TYPE
          },
          new String[] {
            "random_text",
            "country",
            "amount",
            "random_id",
            "small_int",
            "random_micros",
            "flag",
            "always_null"
          });
  private static final int RECORDS = 3000;

  @TempDir java.nio.file.Path dir;

  @Test
  void columnsWhoseFirstValuesRarelyRepeatGoWithoutDictionary() {
    long seed = Seeds.seed("columnsWhoseFirstValuesRarelyRepeatGoWithoutDictionary");
    DictionarySampler sampler = new DictionarySampler(ROW_TYPE, true);
    Rows rows = new Rows(seed);
    while (!sampler.full()) {
      BinaryStringData key = rows.next();
      sampler.add(key.getSegments(), key.getOffset(), key.getSizeInBytes(), rows.row);
    }
    assertThat(sampler.columnsWithoutDictionary())
        .as("seed %d", seed)
        .containsExactly(
            "_hoodie_commit_seqno",
            "_hoodie_record_key",
            "random_text",
            "random_id",
            "random_micros");
    assertThat(sampler.full()).as("a decision starts the next block's sample").isFalse();
  }

  @Test
  void columnsThatKeepTheDictionaryHaveADictionaryPage() throws Exception {
    long seed = Seeds.seed("columnsThatKeepTheDictionaryHaveADictionaryPage");
    ParquetBlockBuilder builder =
        new ParquetBlockBuilder(
            ROW_TYPE,
            AvroSchemas.of(ROW_TYPE, "record", true),
            new MetaFieldValues("20260101000000000", "0-1-0", "p", "f-0"),
            ParquetCodec.SNAPPY,
            true,
            true,
            new BlockBuffer(1 << 16));
    Rows rows = new Rows(seed);
    for (int i = 0; i < RECORDS; i++) {
      builder.add(rows.next(), i, rows.row);
    }
    assertThat(dictionaryPages(builder.finishBlock()))
        .as("seed %d", seed)
        .containsExactlyInAnyOrder(
            "_hoodie_commit_time",
            "_hoodie_partition_path",
            "_hoodie_file_name",
            "country",
            "amount",
            "small_int");
  }

  /** Rows of {@link #ROW_TYPE}, written one at a time into one reused row. */
  private static final class Rows {
    final BinaryRowData row = new BinaryRowData(ROW_TYPE.getFieldCount());
    private final BinaryRowWriter writer = new BinaryRowWriter(row);
    private final SplittableRandom random;
    private int count;

    Rows(long seed) {
      this.random = new SplittableRandom(seed);
    }

    /** Writes the next row into {@link #row}; returns its record key. */
    BinaryStringData next() {
      writer.reset();
      writer.writeString(0, StringData.fromString(Long.toHexString(random.nextLong()) + count));
      writer.writeString(1, StringData.fromString(COUNTRIES[random.nextInt(COUNTRIES.length)]));
      writer.writeLong(2, random.nextInt(500) * 100L);
      writer.writeLong(3, random.nextLong());
      writer.writeInt(4, random.nextInt(100));
      writer.writeTimestamp(
          5,
          TimestampData.fromEpochMillis(random.nextLong(1L << 40), random.nextInt(1_000_000)),
          6);
      writer.writeBoolean(6, random.nextBoolean());
      writer.setNullAt(7);
      writer.complete();
      return BinaryStringData.fromString("key-" + count++);
    }
  }

  @Test
  void theRuleKeepsADictionaryThatFitsItsPage() {
    int page = 1 << 20;
    assertThat(DictionaryDecision.paysOff(1024, 1024, 12, page)).as("no repeat").isFalse();
    assertThat(DictionaryDecision.paysOff(1024, 8, 4096, page))
        .as("eight distinct 4 KB strings")
        .isTrue();
    // 8-byte values: a page holds 131,072 of them; such a column shows 1,020 in 1,024 values.
    assertThat(DictionaryDecision.paysOff(1024, 1020, 8, page)).isTrue();
    assertThat(DictionaryDecision.paysOff(1024, 1021, 8, page)).isFalse();
  }

  /** The columns of a one-row-group block that have a dictionary page. */
  private List<String> dictionaryPages(BlockBuffer content) throws Exception {
    java.nio.file.Path file = dir.resolve("block.parquet");
    Files.write(file, Arrays.copyOf(content.array(), content.size()));
    List<String> columns = new ArrayList<>();
    try (ParquetFileReader reader =
        ParquetFileReader.open(
            HadoopInputFile.fromPath(new Path(file.toUri()), new Configuration(false)))) {
      for (ColumnChunkMetaData column : reader.getFooter().getBlocks().get(0).getColumns()) {
        if (column.hasDictionaryPage()) {
          columns.add(column.getPath().toDotString());
        }
      }
    }
    return columns;
  }
}
