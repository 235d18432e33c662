package dev.mortar.logformat;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mortar.logformat.read.FileSystemInputFile;
import dev.mortar.logformat.read.ParquetRowReader;
import dev.mortar.logformat.read.StoredRowType;
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
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The dictionary decision of a log block and of a base file: columns whose first values rarely
 * repeat go without a dictionary, the others keep it and get a dictionary page on disk.
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
            VarCharType.STRING_TYPE,
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
            "always_null",
            "distinct_then_few"
          });
  private static final int RECORDS = 3000;

  /** The columns whose sample keeps the dictionary, given the values {@link Rows} writes. */
  private static final String[] KEEPING = {
    "_hoodie_commit_time",
    "_hoodie_partition_path",
    "_hoodie_file_name",
    "country",
    "amount",
    "small_int"
  };

  @TempDir java.nio.file.Path dir;

  @Test
  void columnsWhoseFirstValuesRarelyRepeatGoWithoutDictionary() {
    long seed = Seeds.seed("columnsWhoseFirstValuesRarelyRepeatGoWithoutDictionary");
    DictionarySampler sampler = new DictionarySampler(ROW_TYPE, 0, true);
    Rows rows = new Rows(seed, 0);
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
            "random_micros",
            "distinct_then_few");
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
            new BlockScratch(new BlockBuffer(1 << 16), new ParquetWriterResources()));
    Rows rows = new Rows(seed, 0);
    for (int i = 0; i < RECORDS; i++) {
      builder.add(rows.next(), i, rows.row);
    }
    java.nio.file.Path file = dir.resolve("block.parquet");
    BlockBuffer content = builder.finishBlock();
    Files.write(file, Arrays.copyOf(content.array(), content.size()));
    assertThat(dictionaryPages(file)).as("seed %d", seed).containsExactlyInAnyOrder(KEEPING);
  }

  /**
   * Without the decision parquet-mr keeps a dictionary for {@code distinct_then_few}, whose values
   * repeat only after the sample; the random columns fall back to plain encoding either way.
   */
  @ParameterizedTest(name = "dictionary per column {0}")
  @ValueSource(booleans = {true, false})
  void aBaseFileDecidesFromItsFirstRowsAndKeepsThemInOrder(boolean perColumn) throws Exception {
    long seed = Seeds.seed("aBaseFileDecidesFromItsFirstRowsAndKeepsThemInOrder");
    Path file = new Path(dir.resolve("base.parquet").toUri());
    FileSystem fs = FileSystem.getLocal(new Configuration()).getRaw();
    List<String> written = new ArrayList<>();
    try (BaseFileWriter writer =
        new BaseFileWriter(
            fs,
            file,
            ROW_TYPE,
            AvroSchemas.of(ROW_TYPE, "record", true),
            ParquetCodec.SNAPPY,
            1 << 20,
            perColumn,
            new ParquetWriterResources())) {
      Rows rows = new Rows(seed, StoredRowType.META_FIELD_COUNT);
      for (int i = 0; i < RECORDS; i++) {
        rows.next();
        written.add(rows.row.getString(StoredRowType.RECORD_KEY) + "/" + rows.row.getLong(8));
        writer.write(rows.row);
      }
      assertThat(writer.finish().records()).isEqualTo(RECORDS);
    }
    List<String> expected = new ArrayList<>(List.of(KEEPING));
    if (!perColumn) {
      expected.add("distinct_then_few");
    }
    assertThat(dictionaryPages(java.nio.file.Path.of(file.toUri())))
        .as("seed %d", seed)
        .containsExactlyInAnyOrderElementsOf(expected);
    List<String> read = new ArrayList<>();
    new ParquetRowReader(StoredRowType.of(ROW_TYPE))
        .read(
            new FileSystemInputFile(fs, file),
            row -> read.add(row.getString(StoredRowType.RECORD_KEY) + "/" + row.getLong(8)));
    assertThat(read).as("seed %d: the held rows went first", seed).isEqualTo(written);
  }

  /**
   * Rows of {@link #ROW_TYPE} at {@code firstDataField} onwards, written one at a time into one
   * reused row; from position 0, a stored row's meta fields: one of three delta commits, a sequence
   * number and the record key per row, one partition and one log file.
   */
  private static final class Rows {
    final BinaryRowData row;
    private final BinaryRowWriter writer;
    private final int at;
    private final SplittableRandom random;
    private int count;

    Rows(long seed, int firstDataField) {
      this.row = new BinaryRowData(firstDataField + ROW_TYPE.getFieldCount());
      this.writer = new BinaryRowWriter(row);
      this.at = firstDataField;
      this.random = new SplittableRandom(seed);
    }

    /** Writes the next row into {@link #row}; returns its record key. */
    BinaryStringData next() {
      BinaryStringData key = BinaryStringData.fromString("key-" + count);
      writer.reset();
      if (at > 0) {
        String commit = "2026010100000000" + random.nextInt(3);
        writer.writeString(StoredRowType.COMMIT_TIME, StringData.fromString(commit));
        writer.writeString(
            StoredRowType.COMMIT_SEQNO, StringData.fromString(commit + "_0_" + count));
        writer.writeString(StoredRowType.RECORD_KEY, key);
        writer.writeString(StoredRowType.PARTITION_PATH, StringData.fromString("p"));
        writer.writeString(StoredRowType.FILE_NAME, StringData.fromString(".f-0_0.log.1_0-1-0"));
      }
      writer.writeString(at, StringData.fromString(Long.toHexString(random.nextLong()) + count));
      writer.writeString(
          at + 1, StringData.fromString(COUNTRIES[random.nextInt(COUNTRIES.length)]));
      writer.writeLong(at + 2, random.nextInt(500) * 100L);
      writer.writeLong(at + 3, random.nextLong());
      writer.writeInt(at + 4, random.nextInt(100));
      writer.writeTimestamp(
          at + 5,
          TimestampData.fromEpochMillis(random.nextLong(1L << 40), random.nextInt(1_000_000)),
          6);
      writer.writeBoolean(at + 6, random.nextBoolean());
      writer.setNullAt(at + 7);
      String distinctThenFew =
          count < DictionaryDecision.SAMPLE_SIZE ? "first-" + count : "then-" + count % 4;
      writer.writeString(at + 8, StringData.fromString(distinctThenFew));
      writer.complete();
      count++;
      return key;
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

  /** The columns of a one-row-group Parquet file that have a dictionary page. */
  private static List<String> dictionaryPages(java.nio.file.Path file) throws Exception {
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
