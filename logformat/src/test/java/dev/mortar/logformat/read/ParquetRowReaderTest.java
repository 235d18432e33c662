package dev.mortar.logformat.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mortar.logformat.AvroReference;
import dev.mortar.logformat.AvroSchemas;
import dev.mortar.logformat.BlockBuffer;
import dev.mortar.logformat.BlockScratch;
import dev.mortar.logformat.MetaFieldValues;
import dev.mortar.logformat.NormalForm;
import dev.mortar.logformat.ParquetBlockBuilder;
import dev.mortar.logformat.ParquetCodec;
import dev.mortar.logformat.ParquetWriterResources;
import dev.mortar.testing.RandomRows;
import dev.mortar.testing.Seeds;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.avro.AvroParquetWriter;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.util.HadoopOutputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimeUnit;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Random rows written as Parquet by Mortar's block builder and by parquet-avro (both list layouts)
 * read back through {@link ParquetRowReader} equal to what was written, meta values included,
 * compared in {@link NormalForm}.
 */
class ParquetRowReaderTest {
  private static final String INSTANT = "20261122120000123";
  private static final String TOKEN = "2-4-0";
  private static final String PARTITION = "dt=2024-01-01";
  private static final String FILE_ID = "00000003-6f1c-4d4e-9a2b-5c3d2e1f0a9b";
  private static final String RECORD_NAME = "hoodie.t.t_record";
  private static final int ROWS = 300;

  @TempDir java.nio.file.Path dir;

  /** Data rows of one type, and the normal form of each row of its stored type. */
  private record Rows(RowType dataType, List<GenericRowData> data, List<List<Object>> expected) {
    RowType storedType() {
      return StoredRowType.of(dataType);
    }

    /** Row {@code i} of the stored type: its meta values, then its data fields. */
    GenericRowData stored(int i) {
      GenericRowData row =
          new GenericRowData(StoredRowType.META_FIELD_COUNT + dataType.getFieldCount());
      String[] meta = metaValues(i);
      for (int f = 0; f < meta.length; f++) {
        row.setField(f, StringData.fromString(meta[f]));
      }
      for (int f = 0; f < dataType.getFieldCount(); f++) {
        row.setField(StoredRowType.META_FIELD_COUNT + f, data.get(i).getField(f));
      }
      return row;
    }
  }

  private static String[] metaValues(int i) {
    return new String[] {INSTANT, INSTANT + "_2_" + i, recordKey(i), PARTITION, FILE_ID};
  }

  private static String recordKey(int i) {
    return "key-" + i + (i % 3 == 0 ? "-ключ" : "");
  }

  private static Rows randomRows(RandomRows random, RowType dataType) {
    List<GenericRowData> data = new ArrayList<>();
    List<List<Object>> expected = new ArrayList<>();
    for (int i = 0; i < ROWS; i++) {
      GenericRowData row = random.tableRow(dataType, i);
      data.add(row);
      List<Object> fields = new ArrayList<>(List.of((Object[]) metaValues(i)));
      fields.addAll(NormalForm.expectedFields(dataType, row));
      expected.add(fields);
    }
    return new Rows(dataType, data, expected);
  }

  private static RowType randomType(RandomRows random, int iteration, long seed) {
    return iteration == 0
        ? random.tableRowTypeOfEveryKind()
        : random.tableRowType(1 + (int) ((seed + iteration) & 7));
  }

  static Stream<Arguments> blockFlavours() {
    return Stream.of(
        Arguments.of(ParquetCodec.SNAPPY, true),
        Arguments.of(ParquetCodec.SNAPPY, false),
        Arguments.of(ParquetCodec.ZSTD, true),
        Arguments.of(ParquetCodec.GZIP, true),
        Arguments.of(ParquetCodec.NONE, false));
  }

  @ParameterizedTest(name = "{0}, dictionary {1}")
  @MethodSource("blockFlavours")
  void blockContentReadsBackEqual(ParquetCodec codec, boolean dictionary) throws IOException {
    long seed = Seeds.seed("blockContentReadsBackEqual[" + codec + ", " + dictionary + "]");
    RandomRows random = new RandomRows(seed);
    for (int i = 0; i < Seeds.size("mortar.iterations", 6); i++) {
      Rows rows = randomRows(random, randomType(random, i, seed));
      ByteArrayInputFile file = writeBlock(rows, codec, dictionary);
      assertThat(usesDictionary(file, "_hoodie_commit_time"))
          .as("dictionary encoding of a constant column")
          .isEqualTo(dictionary);
      assertThat(readNormal(rows.storedType(), file))
          .as("rows of %s", rows.dataType())
          .isEqualTo(rows.expected());
    }
  }

  @ParameterizedTest(name = "three-level lists {0}")
  @ValueSource(booleans = {true, false})
  void avroWrittenFilesReadBackEqual(boolean threeLevelLists) throws IOException {
    long seed = Seeds.seed("avroWrittenFilesReadBackEqual[" + threeLevelLists + "]");
    RandomRows random = new RandomRows(seed);
    for (int i = 0; i < Seeds.size("mortar.iterations", 6); i++) {
      RowType dataType = randomType(random, i, seed);
      // The 2-level layout cannot hold null elements.
      Rows rows = randomRows(random, threeLevelLists ? dataType : withoutNullElements(dataType));
      ByteArrayInputFile file = writeWithAvro(rows, threeLevelLists, "base-" + i);
      assertThat(readNormal(rows.storedType(), file))
          .as("rows of %s", rows.dataType())
          .isEqualTo(rows.expected());
    }
  }

  @Test
  void readsOnlyTheRequestedColumnsInTheRequestedOrder() throws IOException {
    long seed = Seeds.seed("readsOnlyTheRequestedColumnsInTheRequestedOrder");
    RandomRows random = new RandomRows(seed);
    Rows rows = randomRows(random, random.tableRowTypeOfEveryKind());
    ByteArrayInputFile file = writeBlock(rows, ParquetCodec.SNAPPY, true);
    RowType stored = rows.storedType();
    List<Integer> picked = new ArrayList<>();
    for (int f = stored.getFieldCount() - 1; f >= 0; f -= 2) {
      picked.add(f);
    }
    picked.add(StoredRowType.RECORD_KEY);
    List<RowType.RowField> fields = new ArrayList<>();
    for (int f : picked) {
      fields.add(stored.getFields().get(f));
    }
    List<List<Object>> expected = new ArrayList<>();
    for (List<Object> row : rows.expected()) {
      expected.add(picked.stream().map(row::get).toList());
    }
    assertThat(readNormal(new RowType(fields), file)).isEqualTo(expected);
  }

  /**
   * A nullable column the file lacks (added to the table after the file was written) reads as null;
   * a NOT NULL one fails the read, naming it.
   */
  @Test
  void aColumnMissingFromTheFileIsNullOrNamed() throws IOException {
    long seed = Seeds.seed("aColumnMissingFromTheFileIsNullOrNamed");
    RandomRows random = new RandomRows(seed);
    Rows rows = randomRows(random, random.tableRowType(3));
    ByteArrayInputFile file = writeBlock(rows, ParquetCodec.SNAPPY, true);

    List<RowType.RowField> nullable = new ArrayList<>(rows.storedType().getFields());
    nullable.add(new RowType.RowField("added", new IntType(true)));
    List<List<Object>> expected = new ArrayList<>();
    for (List<Object> row : rows.expected()) {
      List<Object> withNull = new ArrayList<>(row);
      withNull.add(null);
      expected.add(withNull);
    }
    assertThat(readNormal(new RowType(nullable), file)).as("seed %s", seed).isEqualTo(expected);

    List<RowType.RowField> notNull = new ArrayList<>(rows.storedType().getFields());
    notNull.add(new RowType.RowField("not_there", new IntType(false)));
    ParquetRowReader reader = new ParquetRowReader(new RowType(notNull));
    assertThatThrownBy(() -> reader.read(file, row -> {}))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("NOT NULL column not_there")
        .hasMessageContaining(file.toString());
  }

  /**
   * Decimals as INT32, INT64 and sign-extended FIXED_LEN_BYTE_ARRAY, timestamps in nanoseconds and
   * microseconds (other writers' layouts), read as the Flink types of either decimal width and
   * either timestamp width.
   */
  @Test
  void decimalsAndTimestampsOfOtherWritersReadBackEqual() throws IOException {
    long seed = Seeds.seed("decimalsAndTimestampsOfOtherWritersReadBackEqual");
    SplittableRandom random = new SplittableRandom(seed);
    MessageType schema =
        Types.buildMessage()
            .addField(decimalColumn(PrimitiveTypeName.INT32, 0, 9, 2, "d_int"))
            .addField(decimalColumn(PrimitiveTypeName.INT64, 0, 18, 4, "d_long"))
            .addField(decimalColumn(PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY, 12, 18, 3, "d_fixed"))
            .addField(decimalColumn(PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY, 16, 38, 5, "d_wide"))
            .addField(timestampColumn(TimeUnit.NANOS, "ts_nanos"))
            .addField(timestampColumn(TimeUnit.MICROS, "ts_micros"))
            .named("r");
    RowType rowType =
        RowType.of(
            new LogicalType[] {
              new DecimalType(9, 2),
              new DecimalType(18, 4),
              new DecimalType(18, 3),
              new DecimalType(38, 5),
              new TimestampType(6),
              new LocalZonedTimestampType(3)
            },
            new String[] {"d_int", "d_long", "d_fixed", "d_wide", "ts_nanos", "ts_micros"});
    java.nio.file.Path path = dir.resolve("other-writers.parquet");
    List<List<Object>> expected = new ArrayList<>();
    try (ParquetWriter<Group> writer =
        ExampleParquetWriter.builder(new Path(path.toUri()))
            .withType(schema)
            .withConf(new Configuration(false))
            .build()) {
      SimpleGroupFactory groups = new SimpleGroupFactory(schema);
      for (int i = 0; i < ROWS; i++) {
        int intUnscaled = random.nextInt(-999_999_999, 1_000_000_000);
        long longUnscaled = random.nextLong(-999_999_999_999_999_999L, 1_000_000_000_000_000_000L);
        long fixedUnscaled = random.nextLong(-999_999_999_999_999_999L, 1_000_000_000_000_000_000L);
        BigInteger wideUnscaled =
            new BigInteger(120, new java.util.Random(random.nextLong()))
                .multiply(BigInteger.valueOf(random.nextBoolean() ? 1 : -1));
        long nanos = random.nextLong(-4_000_000_000_000_000_000L, 4_000_000_000_000_000_000L);
        long micros = random.nextLong(-4_000_000_000_000_000L, 4_000_000_000_000_000L);
        writer.write(
            groups
                .newGroup()
                .append("d_int", intUnscaled)
                .append("d_long", longUnscaled)
                .append("d_fixed", signExtended(BigInteger.valueOf(fixedUnscaled), 12))
                .append("d_wide", signExtended(wideUnscaled, 16))
                .append("ts_nanos", nanos)
                .append("ts_micros", micros));
        expected.add(
            List.of(
                BigDecimal.valueOf(intUnscaled, 2),
                BigDecimal.valueOf(longUnscaled, 4),
                BigDecimal.valueOf(fixedUnscaled, 3),
                new BigDecimal(wideUnscaled, 5),
                Math.floorDiv(nanos, 1_000L),
                Math.floorDiv(micros, 1_000L)));
      }
    }
    byte[] bytes = Files.readAllBytes(path);
    assertThat(readNormal(rowType, new ByteArrayInputFile(bytes, 0, bytes.length)))
        .isEqualTo(expected);
  }

  private static Type decimalColumn(
      PrimitiveTypeName physical, int length, int precision, int scale, String name) {
    return Types.required(physical)
        .length(length)
        .as(LogicalTypeAnnotation.decimalType(scale, precision))
        .named(name);
  }

  private static Type timestampColumn(TimeUnit unit, String name) {
    return Types.required(PrimitiveTypeName.INT64)
        .as(LogicalTypeAnnotation.timestampType(true, unit))
        .named(name);
  }

  /** {@code value} as a big-endian two's complement integer of {@code length} bytes. */
  private static Binary signExtended(BigInteger value, int length) {
    byte[] minimal = value.toByteArray();
    byte[] bytes = new byte[length];
    java.util.Arrays.fill(bytes, 0, length - minimal.length, (byte) (value.signum() < 0 ? -1 : 0));
    System.arraycopy(minimal, 0, bytes, length - minimal.length, minimal.length);
    return Binary.fromConstantByteArray(bytes);
  }

  private static List<List<Object>> readNormal(RowType rowType, ByteArrayInputFile file)
      throws IOException {
    List<List<Object>> rows = new ArrayList<>();
    long count =
        new ParquetRowReader(rowType)
            .read(file, row -> rows.add(NormalForm.expectedFields(rowType, row)));
    assertThat(count).isEqualTo(rows.size());
    return rows;
  }

  private static ByteArrayInputFile writeBlock(Rows rows, ParquetCodec codec, boolean dictionary)
      throws IOException {
    RowType dataType = rows.dataType();
    ParquetBlockBuilder builder =
        new ParquetBlockBuilder(
            dataType,
            AvroSchemas.of(dataType, RECORD_NAME, true),
            new MetaFieldValues(INSTANT, TOKEN, PARTITION, FILE_ID),
            codec,
            dictionary,
            true,
            new BlockScratch(new BlockBuffer(1 << 16), new ParquetWriterResources()));
    for (int i = 0; i < rows.data().size(); i++) {
      builder.add(
          BinaryStringData.fromString(recordKey(i)),
          i,
          RandomRows.toBinary(dataType, rows.data().get(i)));
    }
    BlockBuffer content = builder.finishBlock();
    return new ByteArrayInputFile(content.array(), 0, content.size());
  }

  /** A base file as Hudi's Java client writes it; small row groups so there are several. */
  private ByteArrayInputFile writeWithAvro(Rows rows, boolean threeLevelLists, String name)
      throws IOException {
    Schema schema = AvroSchemas.of(rows.dataType(), RECORD_NAME, true);
    Configuration conf = new Configuration(false);
    conf.setBoolean("parquet.avro.write-old-list-structure", !threeLevelLists);
    java.nio.file.Path path = dir.resolve(name + (threeLevelLists ? "-3" : "-2") + ".parquet");
    try (ParquetWriter<GenericRecord> writer =
        AvroParquetWriter.<GenericRecord>builder(
                HadoopOutputFile.fromPath(new Path(path.toUri()), conf))
            .withSchema(schema)
            .withConf(conf)
            .withCompressionCodec(CompressionCodecName.GZIP)
            .withRowGroupSize(32 << 10)
            .build()) {
      for (int i = 0; i < rows.data().size(); i++) {
        writer.write(AvroReference.record(schema, rows.storedType(), rows.stored(i)));
      }
    }
    byte[] bytes = Files.readAllBytes(path);
    return new ByteArrayInputFile(bytes, 0, bytes.length);
  }

  private static boolean usesDictionary(ByteArrayInputFile file, String column) throws IOException {
    try (ParquetFileReader reader = ParquetFileReader.open(file)) {
      ColumnChunkMetaData chunk =
          reader.getFooter().getBlocks().get(0).getColumns().stream()
              .filter(c -> c.getPath().toDotString().equals(column))
              .findFirst()
              .orElseThrow();
      return chunk.hasDictionaryPage();
    }
  }

  /** {@code type} with every array's elements NOT NULL. */
  private static RowType withoutNullElements(RowType type) {
    List<RowType.RowField> fields = new ArrayList<>();
    for (RowType.RowField field : type.getFields()) {
      fields.add(new RowType.RowField(field.getName(), withoutNullElements(field.getType())));
    }
    return new RowType(type.isNullable(), fields);
  }

  private static LogicalType withoutNullElements(LogicalType type) {
    switch (type.getTypeRoot()) {
      case ARRAY:
        LogicalType element = withoutNullElements(((ArrayType) type).getElementType());
        return new ArrayType(type.isNullable(), element.copy(false));
      case MAP:
        MapType map = (MapType) type;
        return new MapType(
            type.isNullable(), map.getKeyType(), withoutNullElements(map.getValueType()));
      case ROW:
        return withoutNullElements((RowType) type);
      default:
        return type;
    }
  }
}
