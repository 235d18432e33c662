package dev.mortar.logformat;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mortar.testing.RandomRows;
import dev.mortar.testing.Seeds;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.avro.generic.IndexedRecord;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A file group written past the maximum file size spreads over versions, each record once. */
class RolloverTest {
  @TempDir java.nio.file.Path dir;

  @Test
  void writingPastTheMaxFileSizeRollsToNewVersionsWithEveryRecordOnce() throws Exception {
    long seed = Seeds.seed("writingPastTheMaxFileSizeRollsToNewVersionsWithEveryRecordOnce");
    RandomRows random = new RandomRows(seed);
    FileSystem fs = FileSystem.getLocal(new Configuration());
    Path base = new Path(dir.toUri().toString(), "t");
    RowType rowType = random.tableRowType(4);
    long maxFileSize = 32 << 10;
    LogWriterOptions options =
        LogWriterOptions.builder().maxFileSizeBytes(maxFileSize).maxBlockSizeBytes(6 << 10).build();

    // Both flushes encode with one scratch, as a task that flushes repeatedly does.
    BlockScratch taskBuffer = new BlockScratch(new BlockBuffer(1024), new ParquetWriterResources());
    List<LogFileStat> first =
        RoundTrip.writeAndVerify(fs, base, options, random, rowType, 600, 10, seed, taskBuffer);
    // A second flush of the same file group in the same instant continues after the last version.
    List<LogFileStat> second =
        RoundTrip.writeAndVerify(fs, base, options, random, rowType, 600, 10, seed, taskBuffer);

    List<LogFileStat> all = new ArrayList<>(first);
    all.addAll(second);
    assertThat(first).hasSizeGreaterThan(2);
    for (int i = 0; i < all.size(); i++) {
      assertThat(all.get(i).version()).isEqualTo(i + 1);
    }
    for (List<LogFileStat> flush : List.of(first, second)) {
      for (LogFileStat stat : flush.subList(0, flush.size() - 1)) {
        assertThat(stat.sizeBytes()).isGreaterThanOrEqualTo(maxFileSize);
      }
    }
    Set<String> keys = new HashSet<>();
    int records = 0;
    for (LogFileStat stat : first) {
      Path file = new Path(new Path(base, stat.partitionPath()), stat.fileName());
      for (HudiLogReader.Block block : HudiLogReader.read(fs, file)) {
        for (IndexedRecord record : block.records()) {
          keys.add(record.get(2).toString());
          records++;
        }
      }
    }
    assertThat(records).isEqualTo(600);
    assertThat(keys).hasSize(600);
  }

  @Test
  void nonPartitionedTableWritesIntoTheBasePath() throws Exception {
    FileSystem fs = FileSystem.getLocal(new Configuration());
    Path base = new Path(dir.toUri().toString(), "t");
    RandomRows random = new RandomRows(Seeds.seed("nonPartitionedTableWritesIntoTheBasePath"));
    RowType rowType = random.tableRowType(3);
    List<LogFileStat> stats;
    try (LogFileWriter writer =
        RoundTrip.writer(fs, base, "", rowType, LogWriterOptions.defaults())) {
      writer.write(
          BinaryStringData.fromString("k1"),
          RandomRows.toBinary(rowType, random.tableRow(rowType, 1)));
      writer.delete(BinaryStringData.fromString("k2"), OrderingValue.natural());
      stats = writer.finish();
    }
    assertThat(stats).hasSize(1);
    assertThat(stats.get(0).relativePath()).isEqualTo(stats.get(0).fileName());
    List<HudiLogReader.Block> blocks =
        HudiLogReader.read(fs, new Path(base, stats.get(0).fileName()));
    assertThat(blocks).hasSize(2);
    assertThat(blocks.get(0).records().get(0).get(3)).hasToString("");
    assertThat(blocks.get(1).deletes().get(0).getPartitionPath()).isEmpty();
    assertThat(blocks.get(1).deletes().get(0).getOrderingValue()).isEqualTo(0);
  }

  @Test
  void emptyFlushWritesNoFile() throws Exception {
    FileSystem fs = FileSystem.getLocal(new Configuration());
    Path base = new Path(dir.toUri().toString(), "t");
    RowType rowType = new RandomRows(1).tableRowType(2);
    try (LogFileWriter writer =
        RoundTrip.writer(fs, base, RoundTrip.PARTITION, rowType, LogWriterOptions.defaults())) {
      assertThat(writer.finish()).isEmpty();
    }
    assertThat(fs.exists(new Path(base, RoundTrip.PARTITION))).isFalse();
  }
}
