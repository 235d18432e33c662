package dev.mortar.logformat.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mortar.logformat.AvroSchemas;
import dev.mortar.logformat.BinaryRowAvroEncoder;
import dev.mortar.logformat.BlockBuffer;
import dev.mortar.testing.RandomRows;
import dev.mortar.testing.Seeds;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;

/** The decoder is the inverse of {@link BinaryRowAvroEncoder}, and reads Avro's blocked arrays. */
class AvroRowDecoderTest {
  private static final LogicalType STRING = new VarCharType(false, VarCharType.MAX_LENGTH);

  @Test
  void encodedRandomRowsDecodeToTheirValues() throws IOException {
    long seed = Seeds.seed("encodedRandomRowsDecodeToTheirValues");
    RandomRows random = new RandomRows(seed);
    BlockBuffer out = new BlockBuffer(64);
    int schemas = Seeds.size("mortar.iterations", 6) * 10;
    for (int s = 0; s < schemas; s++) {
      RowType rowType = s == 0 ? random.tableRowTypeOfEveryKind() : random.tableRowType(1 + s % 12);
      BinaryRowAvroEncoder encoder = new BinaryRowAvroEncoder(rowType);
      AvroRowDecoder decoder = new AvroRowDecoder(rowType);
      for (int r = 0; r < 50; r++) {
        BinaryRowData row = RandomRows.toBinary(rowType, random.tableRow(rowType, r));
        out.reset();
        out.writeBytes(new byte[r % 5], 0, r % 5); // a datum need not start the array
        encoder.encode(row, out);
        BinaryRowData decoded = decoder.decode(out.array(), r % 5, out.size() - r % 5);
        assertThat(RowValues.of(rowType, decoded))
            .as("row %d of %s", r, rowType)
            .isEqualTo(RowValues.of(rowType, row));
      }
    }
  }

  /**
   * Avro's blocking encoder cuts arrays and maps into blocks with negative counts and byte sizes,
   * nested ones too; each block boundary must be invisible in the row.
   */
  @Test
  void arraysAndMapsInManyBlocksDecodeWhole() throws IOException {
    RowType rowType =
        RowType.of(
            new LogicalType[] {
              new BigIntType(false),
              new ArrayType(new IntType(true)),
              new MapType(false, STRING, new ArrayType(false, STRING)),
              new ArrayType(false, new ArrayType(false, new IntType(false))),
              new ArrayType(false, RowType.of(false, new IntType(false), new VarCharType(true, 20)))
            },
            new String[] {"id", "numbers", "tags", "matrix", "points"});
    Schema schema = AvroSchemas.of(rowType, "blocked", false);
    List<Integer> numbers = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      numbers.add(i % 7 == 0 ? null : i * 1000);
    }
    Map<String, List<String>> tags = new LinkedHashMap<>();
    for (int i = 0; i < 40; i++) {
      tags.put("key" + i, List.of("a" + i, "b" + i + "-é中"));
    }
    List<List<Integer>> matrix = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      matrix.add(i % 5 == 0 ? List.of() : List.of(i, -i, i * i, 1 << i));
    }
    Schema pointSchema = schema.getField("points").schema().getElementType();
    List<GenericRecord> points = new ArrayList<>();
    List<List<Object>> pointValues = new ArrayList<>();
    for (int i = 0; i < 25; i++) {
      GenericRecord point = new GenericData.Record(pointSchema);
      point.put(0, i);
      point.put(1, i % 4 == 0 ? null : "p" + i);
      points.add(point);
      pointValues.add(Arrays.asList(i, i % 4 == 0 ? null : "p" + i));
    }
    GenericRecord record = new GenericData.Record(schema);
    record.put("points", points);
    record.put("id", 42L);
    record.put("numbers", numbers);
    record.put("tags", tags);
    record.put("matrix", matrix);
    byte[] datum = blockEncoded(schema, record);
    assertThat(datum).as("cut into blocks").isNotEqualTo(encoded(schema, record));

    BinaryRowData row = new AvroRowDecoder(rowType).decode(datum, 0, datum.length);

    List<Object> tagEntries = new ArrayList<>();
    tags.forEach((key, value) -> tagEntries.add(Arrays.asList(key, value)));
    assertThat(RowValues.of(rowType, row))
        .isEqualTo(Arrays.asList(42L, numbers, tagEntries, matrix, pointValues));
  }

  @Test
  void aCutOrOverlongDatumFailsNamingThePosition() throws IOException {
    RowType rowType =
        RowType.of(
            new LogicalType[] {new BigIntType(false), new VarCharType(true, 100)},
            new String[] {"id", "name"});
    GenericRecord record = new GenericData.Record(AvroSchemas.of(rowType, "r", false));
    record.put("id", 7L);
    record.put("name", "a name of some length");
    byte[] datum = blockEncoded(record.getSchema(), record);
    AvroRowDecoder decoder = new AvroRowDecoder(rowType);

    assertThatThrownBy(() -> decoder.decode(datum, 0, datum.length - 1))
        .isInstanceOf(EOFException.class)
        .hasMessageContaining("length 21 at byte 2, but 20 bytes follow");
    byte[] longer = Arrays.copyOf(datum, datum.length + 3);
    assertThatThrownBy(() -> decoder.decode(longer, 0, longer.length))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("3 bytes after its last field");
    byte[] badBranch = datum.clone();
    badBranch[1] = 4; // union branch 2 of ["null", "string"]
    assertThatThrownBy(() -> decoder.decode(badBranch, 0, badBranch.length))
        .hasMessageContaining("name: union branch 2 at byte 1");
  }

  /** Avro's blocking encoding, in blocks of about 64 bytes. */
  private static byte[] blockEncoded(Schema schema, GenericRecord record) throws IOException {
    return write(schema, record, true);
  }

  /** Avro's plain encoding: one block per array or map. */
  private static byte[] encoded(Schema schema, GenericRecord record) throws IOException {
    return write(schema, record, false);
  }

  private static byte[] write(Schema schema, GenericRecord record, boolean blocking)
      throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    EncoderFactory factory = new EncoderFactory().configureBlockSize(64);
    BinaryEncoder encoder =
        blocking
            ? factory.blockingBinaryEncoder(bytes, null)
            : factory.directBinaryEncoder(bytes, null);
    new GenericDatumWriter<GenericRecord>(schema).write(record, encoder);
    encoder.flush();
    return bytes.toByteArray();
  }
}
