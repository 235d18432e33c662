package dev.mortar.logformat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mortar.testing.RandomRows;
import dev.mortar.testing.Seeds;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.avro.Schema;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.api.Binary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A {@link ParquetWriterSetup} writes, content after content, the bytes parquet-mr's own {@link
 * ParquetWriter} writes for the same records and settings: every codec, the dictionary on, off and
 * off for a random set of columns (nested leaves included), with and without meta fields, random
 * row types over every kind (nulls, arrays, maps, rows), and files of several row groups. One
 * set-up serves the whole test, so every content after the first is written with the buffers and
 * compressors earlier contents gave back. The set-up's allocator overwrites every buffer as it
 * becomes free to lend again: parquet-mr reads some buffers after releasing them, and a buffer lent
 * again too early would show as different bytes.
 */
class ParquetWriterSetupTest {
  private static final String[] META_VALUES = {"20260101000000000", "", "", "p", "f-0"};

  @TempDir java.nio.file.Path dir;

  private final ParquetWriterSetup setup =
      new ParquetWriterSetup(
          new RecyclingAllocator(
              ParquetWriterSetup.KEPT_BUFFER_BYTES,
              buffer -> Arrays.fill(buffer.array(), (byte) 0x5A)));

  @Test
  void contentsEqualParquetWritersBlocks() throws Exception {
    long seed = Seeds.seed("contentsEqualParquetWritersBlocks");
    RandomRows random = new RandomRows(seed);
    SplittableRandom split = new SplittableRandom(seed);
    for (int s = 0; s < 12; s++) {
      RowType rowType = s == 0 ? random.tableRowTypeOfEveryKind() : random.tableRowType(1 + s);
      List<BinaryRowData> rows = rows(random, rowType, 100 + split.nextInt(400));
      for (boolean metaFields : new boolean[] {true, false}) {
        BinaryRowWriteSupport writeSupport = writeSupport(rowType, metaFields);
        for (ParquetCodec codec : ParquetCodec.values()) {
          for (Dictionary dictionary : Dictionary.values()) {
            List<String> plain = dictionary.plainColumns(writeSupport, split);
            BlockBuffer expected = new BlockBuffer(1 << 16);
            BlockBuffer actual = new BlockBuffer(1 << 16);
            writeWithParquetWriter(
                new InMemoryOutputFile(expected),
                ParquetFileWriter.Mode.OVERWRITE,
                writeSupport,
                codec,
                dictionary.on,
                plain,
                ParquetWriter.DEFAULT_BLOCK_SIZE,
                rows);
            writeWithSetup(
                new InMemoryOutputFile(actual),
                ParquetFileWriter.Mode.OVERWRITE,
                writeSupport,
                codec,
                dictionary.on,
                plain,
                ParquetWriter.DEFAULT_BLOCK_SIZE,
                rows);
            assertThat(bytes(actual))
                .as(
                    "%s, meta fields %s, %s, dictionary %s without %s, seed %d",
                    rowType, metaFields, codec, dictionary, plain, seed)
                .isEqualTo(bytes(expected));
          }
        }
      }
    }
  }

  /** Base files cut row groups at {@code rowGroupBytes}; each file is created anew (CREATE). */
  @Test
  void filesOfSeveralRowGroupsEqualParquetWritersFiles() throws Exception {
    long seed = Seeds.seed("filesOfSeveralRowGroupsEqualParquetWritersFiles");
    RandomRows random = new RandomRows(seed);
    SplittableRandom split = new SplittableRandom(seed);
    FileSystem fs = FileSystem.getLocal(new Configuration()).getRaw();
    for (int s = 0; s < 4; s++) {
      RowType rowType = random.tableRowType(4 + s);
      List<BinaryRowData> rows = rows(random, rowType, 3000);
      BinaryRowWriteSupport writeSupport = writeSupport(rowType, true);
      ParquetCodec codec = ParquetCodec.values()[s];
      List<String> plain = Dictionary.PER_COLUMN.plainColumns(writeSupport, split);
      long rowGroupBytes = 16 << 10;
      Path expected = new Path(dir.resolve(s + "-parquet-writer.parquet").toUri());
      Path actual = new Path(dir.resolve(s + "-setup.parquet").toUri());
      writeWithParquetWriter(
          new FileSystemOutputFile(fs, expected),
          ParquetFileWriter.Mode.CREATE,
          writeSupport,
          codec,
          true,
          plain,
          rowGroupBytes,
          rows);
      writeWithSetup(
          new FileSystemOutputFile(fs, actual),
          ParquetFileWriter.Mode.CREATE,
          writeSupport,
          codec,
          true,
          plain,
          rowGroupBytes,
          rows);
      assertThat(rowGroups(actual)).as("%s, seed %d", rowType, seed).isGreaterThan(2);
      assertThat(Files.readAllBytes(dir.resolve(s + "-setup.parquet")))
          .as("%s, %s, dictionary without %s, seed %d", rowType, codec, plain, seed)
          .isEqualTo(Files.readAllBytes(dir.resolve(s + "-parquet-writer.parquet")));
    }
  }

  @Test
  void aSecondContentWhileOneIsOpenIsRefused() throws Exception {
    RowType rowType = new RandomRows(1).tableRowType(2);
    ParquetContentFormat format =
        new ParquetContentFormat(
            new InMemoryOutputFile(new BlockBuffer(1 << 10)),
            ParquetFileWriter.Mode.OVERWRITE,
            writeSupport(rowType, false),
            ParquetCodec.SNAPPY,
            true,
            ParquetWriter.DEFAULT_BLOCK_SIZE);
    ParquetContentWriter open = setup.open(format, List.of());
    assertThatThrownBy(() -> setup.open(format, List.of()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("one content at a time");
    open.close();
    setup.open(format, List.of()).close();
  }

  /** Where the dictionary is tried. */
  private enum Dictionary {
    ON(true),
    OFF(false),
    /** On, but off for each column with probability one half. */
    PER_COLUMN(true);

    final boolean on;

    Dictionary(boolean on) {
      this.on = on;
    }

    List<String> plainColumns(BinaryRowWriteSupport writeSupport, SplittableRandom split) {
      List<String> plain = new ArrayList<>();
      if (this == PER_COLUMN) {
        for (ColumnDescriptor column :
            writeSupport.init(new Configuration(false)).getSchema().getColumns()) {
          if (split.nextBoolean()) {
            plain.add(String.join(".", column.getPath()));
          }
        }
      }
      return plain;
    }
  }

  private void writeWithSetup(
      OutputFile file,
      ParquetFileWriter.Mode mode,
      BinaryRowWriteSupport writeSupport,
      ParquetCodec codec,
      boolean dictionary,
      List<String> plain,
      long rowGroupBytes,
      List<BinaryRowData> rows)
      throws Exception {
    ParquetContentWriter writer =
        setup.open(
            new ParquetContentFormat(file, mode, writeSupport, codec, dictionary, rowGroupBytes),
            plain);
    for (BinaryRowData row : rows) {
      writer.write(row);
    }
    writer.close();
  }

  private static void writeWithParquetWriter(
      OutputFile file,
      ParquetFileWriter.Mode mode,
      BinaryRowWriteSupport writeSupport,
      ParquetCodec codec,
      boolean dictionary,
      List<String> plain,
      long rowGroupBytes,
      List<BinaryRowData> rows)
      throws Exception {
    ParquetWriterBuilder<BinaryRowData> builder =
        new ParquetWriterBuilder<>(file, writeSupport)
            .withConf(new Configuration(false))
            .withWriteMode(mode)
            .withCompressionCodec(codec.parquetName())
            .withDictionaryEncoding(dictionary)
            .withRowGroupSize(rowGroupBytes);
    for (String column : plain) {
      builder.withDictionaryEncoding(column, false);
    }
    try (ParquetWriter<BinaryRowData> writer = builder.build()) {
      for (BinaryRowData row : rows) {
        writer.write(row);
      }
    }
  }

  private static List<BinaryRowData> rows(RandomRows random, RowType rowType, int count) {
    List<BinaryRowData> rows = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      rows.add(RandomRows.toBinary(rowType, random.tableRow(rowType, i)));
    }
    return rows;
  }

  /** With meta fields: constant ones, and the row's {@code id} as its record key and seqno. */
  private static BinaryRowWriteSupport writeSupport(RowType rowType, boolean metaFields) {
    Schema avroSchema = AvroSchemas.of(rowType, "record", metaFields);
    ParquetMetaColumns metaColumns =
        (consumer, row) -> {
          Binary id = Binary.fromString(Long.toString(row.getLong(0)));
          for (int field = 0; field < META_VALUES.length; field++) {
            Binary value = field == 1 || field == 2 ? id : Binary.fromString(META_VALUES[field]);
            ParquetMetaColumns.writeField(consumer, field, value);
          }
        };
    return new BinaryRowWriteSupport(rowType, 0, avroSchema, metaFields ? metaColumns : null);
  }

  private static int rowGroups(Path file) throws Exception {
    try (ParquetFileReader reader =
        ParquetFileReader.open(HadoopInputFile.fromPath(file, new Configuration(false)))) {
      return reader.getFooter().getBlocks().size();
    }
  }

  private static byte[] bytes(BlockBuffer buffer) {
    return Arrays.copyOf(buffer.array(), buffer.size());
  }
}
