package dev.mortar.logformat;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mortar.testing.RandomRows;
import java.io.IOException;
import java.util.List;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hudi.common.table.log.block.HoodieLogBlock.HoodieLogBlockType;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A crash can leave a log file cut anywhere inside its last block. Hudi's reader must still return
 * every earlier block intact and report the tail as corrupt, and a new attempt for the same file
 * group and instant must not append after the damage but start the next version.
 */
class CrashSafetyTest {
  private static final RowType ROW_TYPE =
      RowType.of(
          new org.apache.flink.table.types.logical.LogicalType[] {
            new BigIntType(false), VarCharType.STRING_TYPE
          },
          new String[] {"id", "name"});

  @TempDir java.nio.file.Path dir;
  private FileSystem fs;

  @BeforeEach
  void setUp() throws IOException {
    fs = FileSystem.getLocal(new Configuration());
  }

  /** {@code deletes}: the last block is a delete block; otherwise a small Avro data block. */
  @ParameterizedTest(name = "last block is a delete block: {0}")
  @ValueSource(booleans = {true, false})
  void everyCutInsideTheLastBlockKeepsEarlierBlocks(boolean deletes) throws Exception {
    Path base = new Path(dir.toUri().toString(), "t");
    LogWriterOptions options =
        LogWriterOptions.builder().maxBlockSizeBytes(100).metaFields(false).build();
    List<LogFileStat> stats = write(base, options, 13, deletes ? 2 : 0);
    assertThat(stats).hasSize(1);
    Path file = new Path(new Path(base, RoundTrip.PARTITION), stats.get(0).fileName());
    byte[] bytes = readAll(file);
    List<HudiLogReader.Block> intact = HudiLogReader.read(fs, file);
    assertThat(intact).hasSize(stats.get(0).numBlocks()).hasSizeGreaterThan(2);
    int lastBlockStart = bytes.length - lastBlockSize(bytes);

    Path cutFile = new Path(dir.toUri().toString(), "cut/" + stats.get(0).fileName());
    for (int cut = lastBlockStart + 1; cut < bytes.length; cut++) {
      try (FSDataOutputStream out = fs.create(cutFile, true)) {
        out.write(bytes, 0, cut);
      }
      List<HudiLogReader.Block> blocks = HudiLogReader.readSmallBuffer(fs, cutFile);
      // A tail shorter than the magic is no block at all to Hudi's reader; anything longer is
      // reported as one corrupt block.
      boolean tailHasMagic = cut - lastBlockStart >= LogBlockLayout.MAGIC.length;
      int expectedBlocks = tailHasMagic ? intact.size() : intact.size() - 1;
      assertThat(blocks).as("cut at %d of %d", cut, bytes.length).hasSize(expectedBlocks);
      for (int b = 0; b < intact.size() - 1; b++) {
        assertThat(blocks.get(b).type()).isEqualTo(intact.get(b).type());
        assertThat(blocks.get(b).header()).isEqualTo(intact.get(b).header());
        assertThat(blocks.get(b).records()).isEqualTo(intact.get(b).records());
        assertThat(blocks.get(b).deletes()).isEqualTo(intact.get(b).deletes());
      }
      if (tailHasMagic) {
        assertThat(blocks.get(intact.size() - 1).type())
            .as("tail after cut at %d of %d", cut, bytes.length)
            .isEqualTo(HoodieLogBlockType.CORRUPT_BLOCK);
      }
    }
  }

  @ParameterizedTest(name = "cut {0} bytes before the end")
  @ValueSource(ints = {1, 12, 100})
  void aNewAttemptStartsTheNextVersionInsteadOfAppending(int cutFromEnd) throws Exception {
    Path base = new Path(dir.toUri().toString(), "t");
    LogWriterOptions options = LogWriterOptions.builder().maxBlockSizeBytes(400).build();
    LogFileStat crashed = write(base, options, 12, 2).get(0);
    Path crashedFile = new Path(new Path(base, RoundTrip.PARTITION), crashed.fileName());
    byte[] bytes = readAll(crashedFile);
    try (FSDataOutputStream out = fs.create(crashedFile, true)) {
      out.write(bytes, 0, bytes.length - cutFromEnd);
    }

    List<LogFileStat> retry = write(base, options, 12, 2);

    assertThat(retry).hasSize(1);
    assertThat(retry.get(0).version()).isEqualTo(crashed.version() + 1);
    assertThat(fs.getFileStatus(crashedFile).getLen()).isEqualTo(bytes.length - cutFromEnd);
    Path retryFile = new Path(new Path(base, RoundTrip.PARTITION), retry.get(0).fileName());
    List<HudiLogReader.Block> blocks = HudiLogReader.read(fs, retryFile);
    assertThat(blocks).hasSize(retry.get(0).numBlocks());
    assertThat(blocks).noneMatch(b -> b.type() == HoodieLogBlockType.CORRUPT_BLOCK);
  }

  private List<LogFileStat> write(Path base, LogWriterOptions options, int rows, int deletes)
      throws IOException {
    try (LogFileWriter writer =
        RoundTrip.writer(fs, base, RoundTrip.PARTITION, ROW_TYPE, options)) {
      for (int i = 0; i < rows; i++) {
        GenericRowData row = GenericRowData.of((long) i, StringData.fromString("name-" + i + "-ü"));
        writer.write(BinaryStringData.fromString("k" + i), RandomRows.toBinary(ROW_TYPE, row));
      }
      for (int i = 0; i < deletes; i++) {
        writer.delete(BinaryStringData.fromString("d" + i), OrderingValue.ofLong(i));
      }
      return writer.finish();
    }
  }

  /** The last block's size from its reverse pointer (the file's last 8 bytes) plus 8. */
  private static int lastBlockSize(byte[] file) {
    long reversePointer = 0;
    for (int i = file.length - 8; i < file.length; i++) {
      reversePointer = (reversePointer << 8) | (file[i] & 0xFF);
    }
    return (int) reversePointer + 8;
  }

  private byte[] readAll(Path file) throws IOException {
    byte[] bytes = new byte[(int) fs.getFileStatus(file).getLen()];
    try (FSDataInputStream in = fs.open(file)) {
      in.readFully(bytes);
    }
    return bytes;
  }
}
