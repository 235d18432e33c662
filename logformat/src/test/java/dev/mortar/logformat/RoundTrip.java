package dev.mortar.logformat;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mortar.testing.RandomRows;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.avro.Schema;
import org.apache.avro.generic.IndexedRecord;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hudi.common.model.DeleteRecord;
import org.apache.hudi.common.table.log.block.HoodieLogBlock.HeaderMetadataType;
import org.apache.hudi.common.table.log.block.HoodieLogBlock.HoodieLogBlockType;

/**
 * Writes random rows and deletes of one file group with {@link LogFileWriter} and checks that
 * Hudi's reader gives back exactly the same blocks, headers, records, meta fields and deletes.
 */
final class RoundTrip {
  static final String PARTITION = "dt=2024-01-01";
  static final String FILE_ID = "00000003-6f1c-4d4e-9a2b-5c3d2e1f0a9b";
  static final String INSTANT = "20261122120000123";
  static final String TOKEN = "2-4-0";

  private RoundTrip() {}

  /** A delete's ordering value and what Hudi's reader must give back for it. */
  record Ordering(OrderingValue value, Comparable<?> expected) {}

  static Ordering randomOrdering(SplittableRandom random) {
    switch (random.nextInt(6)) {
      case 0:
        return new Ordering(OrderingValue.natural(), 0);
      case 1:
        int i = random.nextInt();
        return new Ordering(OrderingValue.ofInt(i), i);
      case 2:
        long l = random.nextLong();
        return new Ordering(OrderingValue.ofLong(l), l);
      case 3:
        double d = random.nextDouble();
        return new Ordering(OrderingValue.ofDouble(d), d);
      case 4:
        String s = "ts-" + random.nextInt(1000) + "-é";
        return new Ordering(OrderingValue.ofString(s), s);
      default:
        long micros = random.nextLong(0, 4_000_000_000_000_000L);
        return new Ordering(OrderingValue.ofTimestampMicros(micros), micros);
    }
  }

  /**
   * A writer of the test file group ({@link #FILE_ID} at {@link #INSTANT}) in {@code partition}.
   */
  static LogFileWriter writer(
      FileSystem fs, Path base, String partition, RowType rowType, LogWriterOptions options) {
    return new LogFileWriter(fs, base, partition, FILE_ID, INSTANT, TOKEN, rowType, options);
  }

  /** Writes {@code rows} records and {@code deletes} deletes, reads them back, asserts. */
  static List<LogFileStat> writeAndVerify(
      FileSystem fs,
      Path base,
      LogWriterOptions options,
      RandomRows random,
      RowType rowType,
      int rows,
      int deletes,
      long seed)
      throws IOException {
    return writeAndVerify(fs, base, options, random, rowType, rows, deletes, seed, null);
  }

  /** The same, encoding with {@code reused} (a scratch shared across flushes) when not null. */
  static List<LogFileStat> writeAndVerify(
      FileSystem fs,
      Path base,
      LogWriterOptions options,
      RandomRows random,
      RowType rowType,
      int rows,
      int deletes,
      long seed,
      BlockScratch reused)
      throws IOException {
    SplittableRandom keys = new SplittableRandom(seed);
    List<List<Object>> expectedRows = new ArrayList<>();
    List<String> rowKeys = new ArrayList<>();
    List<String> deleteKeys = new ArrayList<>();
    List<Ordering> orderings = new ArrayList<>();
    List<LogFileStat> stats;
    Schema schema;
    try (LogFileWriter writer =
        reused == null
            ? writer(fs, base, PARTITION, rowType, options)
            : new LogFileWriter(
                fs, base, PARTITION, FILE_ID, INSTANT, TOKEN, rowType, options, reused)) {
      schema = writer.avroSchema();
      for (int i = 0; i < rows; i++) {
        GenericRowData row = random.tableRow(rowType, i);
        BinaryRowData binary = RandomRows.toBinary(rowType, row);
        String key = "key-" + i + (keys.nextBoolean() ? "-ключ" : "");
        rowKeys.add(key);
        expectedRows.add(NormalForm.expectedFields(rowType, row));
        writer.write(BinaryStringData.fromString(key), binary);
      }
      for (int i = 0; i < deletes; i++) {
        String key = "gone-" + i;
        Ordering ordering = randomOrdering(keys);
        deleteKeys.add(key);
        orderings.add(ordering);
        writer.delete(BinaryStringData.fromString(key), ordering.value());
      }
      stats = writer.finish();
    }

    List<HudiLogReader.Block> blocks = new ArrayList<>();
    Path partitionDir = new Path(base, PARTITION);
    for (LogFileStat stat : stats) {
      Path file = new Path(partitionDir, stat.fileName());
      List<HudiLogReader.Block> fileBlocks = HudiLogReader.read(fs, file);
      assertThat(fs.getFileStatus(file).getLen())
          .as("size of %s", file)
          .isEqualTo(stat.sizeBytes());
      assertThat(fileBlocks).as("blocks of %s", stat).hasSize(stat.numBlocks());
      assertThat(fileBlocks.stream().mapToLong(b -> b.records().size()).sum())
          .isEqualTo(stat.numWrites());
      assertThat(fileBlocks.stream().mapToLong(b -> b.deletes().size()).sum())
          .isEqualTo(stat.numDeletes());
      assertThat(stat.partitionPath()).isEqualTo(PARTITION);
      assertThat(stat.fileId()).isEqualTo(FILE_ID);
      assertThat(LogFileName.versionOf(stat.fileName())).isEqualTo(stat.version());
      blocks.addAll(fileBlocks);
    }

    HoodieLogBlockType dataType =
        options.blockFormat() == LogBlockFormat.AVRO
            ? HoodieLogBlockType.AVRO_DATA_BLOCK
            : HoodieLogBlockType.PARQUET_DATA_BLOCK;
    List<IndexedRecord> records = new ArrayList<>();
    List<DeleteRecord> deleted = new ArrayList<>();
    for (int b = 0; b < blocks.size(); b++) {
      HudiLogReader.Block block = blocks.get(b);
      boolean last = b == blocks.size() - 1;
      assertThat(block.type())
          .as("block %d of %d", b, blocks.size())
          .isEqualTo(last && deletes > 0 ? HoodieLogBlockType.DELETE_BLOCK : dataType);
      assertThat(block.header()).containsEntry(HeaderMetadataType.INSTANT_TIME, INSTANT);
      assertThat(new Schema.Parser().parse(block.header().get(HeaderMetadataType.SCHEMA)))
          .isEqualTo(schema);
      records.addAll(block.records());
      deleted.addAll(block.deletes());
    }

    assertThat(records).hasSize(rows);
    int first = options.metaFields() ? AvroSchemas.META_FIELDS.size() : 0;
    for (int i = 0; i < rows; i++) {
      IndexedRecord record = records.get(i);
      if (options.metaFields()) {
        assertThat(record.get(0)).hasToString(INSTANT);
        assertThat(record.get(1)).hasToString(INSTANT + "_2_" + i);
        assertThat(record.get(2)).hasToString(rowKeys.get(i));
        assertThat(record.get(3)).hasToString(PARTITION);
        assertThat(record.get(4)).hasToString(FILE_ID);
      }
      assertThat(NormalForm.actualFields(rowType, record, first))
          .as("record %d of schema %s", i, rowType)
          .isEqualTo(expectedRows.get(i));
    }

    assertThat(deleted).hasSize(deletes);
    for (int i = 0; i < deletes; i++) {
      assertThat(deleted.get(i).getRecordKey()).isEqualTo(deleteKeys.get(i));
      assertThat(deleted.get(i).getPartitionPath()).isEqualTo(PARTITION);
      assertThat(orderingValue(deleted.get(i))).isEqualTo(orderings.get(i).expected());
    }
    return stats;
  }

  /** Hudi unwraps TimestampMicrosWrapper into java.sql.Timestamp; compare it as epoch micros. */
  private static Object orderingValue(DeleteRecord delete) {
    Object value = delete.getOrderingValue();
    if (value instanceof java.sql.Timestamp) {
      return java.time.temporal.ChronoUnit.MICROS.between(
          java.time.Instant.EPOCH, ((java.sql.Timestamp) value).toInstant());
    }
    return value;
  }
}
