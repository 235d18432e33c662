package dev.mortar.logformat.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mortar.logformat.AvroSchemas;
import dev.mortar.logformat.BlockBuffer;
import dev.mortar.logformat.LogBlockLayout;
import dev.mortar.logformat.LogFileStat;
import dev.mortar.logformat.LogFileWriter;
import dev.mortar.logformat.LogWriterOptions;
import dev.mortar.logformat.OrderingValue;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.BooleanType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A damaged or foreign log file fails with an IOException naming the file and the block. */
class LogFileReaderCorruptionTest {
  private static final RowType TABLE =
      RowType.of(
          new LogicalType[] {new BigIntType(false), new VarCharType(true, 200)},
          new String[] {"id", "name"});
  private static final String INSTANT = "20260301093000456";

  @TempDir java.nio.file.Path dir;
  private FileSystem fs;
  private java.nio.file.Path file;
  private byte[] bytes;
  private List<Integer> blockOffsets;

  /** A file of many small Avro blocks and a delete block. */
  @BeforeEach
  void writeFile() throws IOException {
    fs = FileSystem.getLocal(new Configuration());
    file = write(TABLE, LogWriterOptions.builder().maxBlockSizeBytes(256).build(), "good");
    bytes = Files.readAllBytes(file);
    blockOffsets = blockOffsets(bytes);
    assertThat(blockOffsets).hasSizeGreaterThan(3);
  }

  @Test
  void theIntactFileReads() throws IOException {
    LogFileRead read = read(file, TABLE);
    assertThat(read.records()).isEqualTo(40);
    assertThat(read.deletes()).isEqualTo(3);
    assertThat(read.dataBlocks() + read.deleteBlocks()).isEqualTo(blockOffsets.size());
  }

  @Test
  void aTruncatedFileFailsAtItsLastBlock() throws IOException {
    int last = blockOffsets.get(blockOffsets.size() - 1);
    for (int cut : new int[] {bytes.length - 1, last + 20, last + 5}) {
      java.nio.file.Path truncated = copy(Arrays.copyOf(bytes, cut), "truncated-" + cut);
      assertThatThrownBy(() -> read(truncated, TABLE))
          .isInstanceOf(IOException.class)
          .hasMessageContaining(truncated.getFileName().toString())
          .hasMessageContaining("block at offset " + last + ":")
          .hasMessageContaining("truncated file?");
    }
  }

  @Test
  void aBadReversePointerFailsNamingTheBlock() throws IOException {
    int second = blockOffsets.get(1);
    int third = blockOffsets.get(2);
    byte[] damaged = bytes.clone();
    long length = third - second - 14;
    ByteBuffer.wrap(damaged).putLong(third - 8, length + 7);
    java.nio.file.Path bad = copy(damaged, "bad-pointer");
    assertThatThrownBy(() -> read(bad, TABLE))
        .isInstanceOf(IOException.class)
        .hasMessageContaining(bad.getFileName().toString())
        .hasMessageContaining(
            "block at offset "
                + second
                + ": reverse pointer "
                + (length + 7)
                + ", expected block length + 6 = "
                + (length + 6));
  }

  @Test
  void aBlockLengthThatDisagreesWithItsPartsFails() throws IOException {
    byte[] damaged = bytes.clone();
    int second = blockOffsets.get(1);
    ByteBuffer buffer = ByteBuffer.wrap(damaged);
    long length = buffer.getLong(second + 6);
    buffer.putLong(second + 6, length + 1);
    java.nio.file.Path longer = copy(damaged, "longer");
    assertThatThrownBy(() -> read(longer, TABLE))
        .hasMessageContaining(longer.getFileName().toString())
        .hasMessageContaining(
            "block at offset "
                + second
                + ": block length "
                + (length + 1)
                + " puts the reverse pointer at byte "
                + (second + 14 + length - 7)
                + ", but the header, content and footer end at byte "
                + (second + 14 + length - 8));

    buffer.putLong(second + 6, length - 1);
    java.nio.file.Path shorter = copy(damaged, "shorter");
    assertThatThrownBy(() -> read(shorter, TABLE))
        .hasMessageContaining(shorter.getFileName().toString())
        .hasMessageContaining("block at offset " + second + ": content length");
  }

  @Test
  void aBadMagicFailsNamingTheBlock() throws IOException {
    byte[] damaged = bytes.clone();
    int third = blockOffsets.get(2);
    damaged[third + 1] = 'X';
    java.nio.file.Path bad = copy(damaged, "bad-magic");
    assertThatThrownBy(() -> read(bad, TABLE))
        .hasMessageContaining(bad.getFileName().toString())
        .hasMessageContaining(
            "block at offset " + third + ": expected the magic #HUDI#, found 235855");
  }

  @Test
  void aForeignSchemaFailsNamingTheField() throws IOException {
    RowType other =
        RowType.of(
            new LogicalType[] {new BigIntType(false), new BooleanType(true)},
            new String[] {"id", "name"});
    java.nio.file.Path foreign = write(other, LogWriterOptions.defaults(), "foreign");
    assertThatThrownBy(() -> read(foreign, TABLE))
        .isInstanceOf(IOException.class)
        .hasMessageContaining(foreign.getFileName().toString())
        .hasMessageContaining("block at offset 0: the SCHEMA header differs")
        .hasMessageContaining("schema evolution beyond nullable columns added at the end")
        .hasMessageContaining("field 6 expected 'name'")
        .hasMessageContaining("\"boolean\"");

    java.nio.file.Path withoutMeta =
        write(TABLE, LogWriterOptions.builder().metaFields(false).build(), "no-meta");
    assertThatThrownBy(() -> read(withoutMeta, TABLE))
        .hasMessageContaining(withoutMeta.getFileName().toString())
        .hasMessageContaining("block at offset 0: the SCHEMA header differs")
        .hasMessageContaining("field 0 expected '_hoodie_commit_time'");
  }

  @Test
  void aCommandBlockFailsNamingItsOffset() throws IOException {
    byte[] withCommand = append(bytes, 0, new BlockBuffer(16));
    java.nio.file.Path commanded = copy(withCommand, "command");
    assertThatThrownBy(() -> read(commanded, TABLE))
        .hasMessageContaining(commanded.getFileName().toString())
        .hasMessageContaining("block at offset " + bytes.length + ": command block (type 0");

    java.nio.file.Path hfile = copy(append(bytes, 4, new BlockBuffer(16)), "hfile");
    assertThatThrownBy(() -> read(hfile, TABLE))
        .hasMessageContaining("block at offset " + bytes.length + ": block type 4, expected");
  }

  @Test
  void anArrayWrapperOrderingValueIsRefused() throws IOException {
    BlockBuffer content = new BlockBuffer(64);
    content.writeIntBigEndian(LogBlockLayout.BLOCK_CONTENT_VERSION);
    int lengthPosition = content.reserve(4);
    content.writeAvroLong(1); // one delete
    content.writeByte(2);
    content.writeAvroBytes("k1".getBytes(java.nio.charset.StandardCharsets.UTF_8));
    content.writeByte(2);
    content.writeAvroBytes(new byte[0]);
    content.writeAvroLong(12); // ArrayWrapper
    content.writeByte(0);
    content.writeAvroLong(0);
    content.putIntBigEndian(lengthPosition, content.size() - 8);
    java.nio.file.Path arrayWrapper =
        copy(append(new byte[0], LogBlockLayout.DELETE_BLOCK, content), "array-wrapper");
    assertThatThrownBy(() -> read(arrayWrapper, TABLE))
        .hasMessageContaining(arrayWrapper.getFileName().toString())
        .hasMessageContaining(
            "block at offset 0: delete block: delete 0 (key k1) has ordering value")
        .hasMessageContaining("ArrayWrapper");
  }

  private LogFileRead read(java.nio.file.Path logFile, RowType dataType) throws IOException {
    LogRecordSink ignore =
        new LogRecordSink() {
          @Override
          public void row(BinaryRowData storedRow) {}

          @Override
          public void delete(BinaryStringData key, String partitionPath, OrderingValue value) {}
        };
    return new LogFileReader(dataType).read(fs, new Path(logFile.toUri()), ignore);
  }

  private java.nio.file.Path write(RowType rowType, LogWriterOptions options, String table)
      throws IOException {
    Path base = new Path(dir.toUri().toString(), table);
    List<LogFileStat> stats;
    try (LogFileWriter writer =
        new LogFileWriter(
            fs,
            base,
            "",
            "00000002-aaaa-bbbb-cccc-dddddddddddd",
            INSTANT,
            "1-0-0",
            rowType,
            options)) {
      for (int i = 0; i < 40; i++) {
        GenericRowData row = new GenericRowData(2);
        row.setField(0, (long) i);
        row.setField(
            1,
            rowType.getTypeAt(1) instanceof BooleanType
                ? (Object) (i % 2 == 0)
                : StringData.fromString("name " + i));
        writer.write(
            BinaryStringData.fromString("key" + i),
            dev.mortar.testing.RandomRows.toBinary(rowType, row));
      }
      for (int i = 0; i < 3; i++) {
        writer.delete(BinaryStringData.fromString("gone" + i), OrderingValue.ofLong(i));
      }
      stats = writer.finish();
    }
    assertThat(stats).hasSize(1);
    return java.nio.file.Path.of(new Path(base, stats.get(0).fileName()).toUri());
  }

  private java.nio.file.Path copy(byte[] content, String name) throws IOException {
    return Files.write(dir.resolve(name + ".log"), content);
  }

  /** {@code file} with one more block of {@code type} and {@code content} at its end. */
  private static byte[] append(byte[] file, int type, BlockBuffer content) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(file);
    byte[] header =
        LogBlockLayout.header(INSTANT, AvroSchemas.of(TABLE, "record", true).toString());
    LogBlockLayout.writeBlock(out, new BlockBuffer(64), type, header, content);
    return out.toByteArray();
  }

  /** Where each block starts: magic, then 8 bytes L, then L bytes. */
  private static List<Integer> blockOffsets(byte[] file) {
    List<Integer> offsets = new ArrayList<>();
    for (int at = 0; at < file.length; at += 14 + (int) ByteBuffer.wrap(file).getLong(at + 6)) {
      offsets.add(at);
    }
    return offsets;
  }
}
