package dev.mortar.writer.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mortar.logformat.LogBlockFormat;
import dev.mortar.writer.MortarSink;
import dev.mortar.writer.it.Changelog;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every guard of the sink's settings fails when the job is built (here: {@code
 * MortarSink.Builder.build()}), with a message that names the option or field, what is allowed and
 * what was found; the log writer's and the buffer's guards among them.
 */
class SinkSettingsTest {
  private static final RowType WIDE_ROW;
  private static final RowType NANOS =
      (RowType)
          DataTypes.ROW(
                  DataTypes.FIELD("id", DataTypes.BIGINT().notNull()),
                  DataTypes.FIELD("nanos", DataTypes.TIMESTAMP(9)))
              .getLogicalType();
  private static final RowType INT_KEYED_MAP =
      (RowType)
          DataTypes.ROW(
                  DataTypes.FIELD("id", DataTypes.BIGINT().notNull()),
                  DataTypes.FIELD("counts", DataTypes.MAP(DataTypes.INT(), DataTypes.INT())))
              .getLogicalType();

  static {
    LogicalType[] fields = new LogicalType[16384];
    Arrays.fill(fields, new BigIntType(false));
    WIDE_ROW = RowType.of(fields);
  }

  @TempDir static Path dir;

  @ParameterizedTest(name = "{0} blocks, log.max-block-size {1}: {2} bytes")
  @CsvSource({"AVRO,,8388608", "PARQUET,,134217728", "AVRO,32 mb,33554432", "PARQUET,1 mb,1048576"})
  void theBlockSizeIsTheBlockFormatsDefaultUnlessSet(
      LogBlockFormat format, String blockSize, long expectedBytes) {
    MortarSink.Builder builder = sink(Changelog.ROW_TYPE).recordKey("id").logBlockFormat(format);
    if (blockSize != null) {
      builder.maxLogBlockSize(MemorySize.parse(blockSize));
    }
    assertThat(builder.build().settings().logWriterOptions().maxBlockSizeBytes())
        .isEqualTo(expectedBytes);
  }

  static Stream<Arguments> guards() {
    return Stream.of(
        guard(
            "no path",
            b -> MortarSink.builder(Changelog.ROW_TYPE).recordKey("id"),
            "option 'path' (the table base path) is required"),
        guard("0 buckets", b -> b.buckets(0), "option 'buckets' must be > 0, got 0"),
        guard(
            "0 flush threads",
            b -> b.flushThreads(0),
            "option 'write.flush-threads' must be > 0, got 0"),
        guard(
            "compaction interval 0",
            b -> b.compactionInterval(java.time.Duration.ZERO),
            "option 'compaction.interval' must be at least 1 ms, got PT0S"),
        guard(
            "compaction tasks 0",
            b -> b.compactionTasks(0),
            "option 'compaction.tasks' must be > 0, got 0"),
        guard(
            "clean retaining 0 commits",
            b -> b.cleanRetainCommits(0),
            "option 'clean.retain-commits' must be > 0, got 0"),
        guard(
            "negative stall plans",
            b -> b.stallPendingCompactions(-1),
            "option 'write.stall.pending-compactions' must be >= 0 (0 turns the limit off), got -1"),
        guard(
            "negative stall lag",
            b -> b.stallCompactionLag(-1),
            "option 'write.stall.compaction-lag' must be >= 0 (0 turns the limit off), got -1"),
        guard(
            "zero stall wait",
            b -> b.stallMaxWait(Duration.ZERO),
            "option 'write.stall.max-wait' must be > 0 ms, got 0 ms"),
        guard(
            "compaction memory of 2 pages",
            b -> b.compactionMemory(MemorySize.parse("128 kb")),
            "option 'compaction.memory' (131072 bytes) must hold at least 3 pages of"
                + " 'buffer.page-size'"),
        guard(
            "compaction without meta fields",
            b -> b.populateMetaFields(false),
            "option 'compaction.schedule.enabled' needs 'hoodie.populate.meta.fields' = true:"
                + " compaction takes each record's key from its meta fields; turn compaction off"
                + " or the meta fields on"),
        guard(
            "parallelism 0", b -> b.parallelism(0), "option 'sink.parallelism' must be > 0, got 0"),
        guard(
            "batch size 0 b",
            b -> b.batchSize(MemorySize.parse("0 b")),
            "option 'write.batch-size' must be > 0, got 0 bytes"),
        guard(
            "page size not a power of two",
            b -> b.pageSize(MemorySize.parse("1000 b")),
            "page size ('buffer.page-size') must be a power of two of at least 64 bytes, got 1000"),
        guard(
            "page size 4 gb",
            b -> b.pageSize(MemorySize.parse("4 gb")),
            "'buffer.page-size' must be below 2 GiB, got 4294967296 bytes"),
        guard(
            "buffer memory below one page",
            b -> b.bufferSize(MemorySize.parse("32 kb")),
            "buffer budget ('buffer.memory') must hold at least one page (65536 bytes) and at most"
                + " 34359738368 bytes, got 32768"),
        guard(
            "buffer memory of 2 pages",
            b -> b.bufferSize(MemorySize.parse("128 kb")),
            "option 'buffer.memory' (131072 bytes) must hold at least 3 pages of"
                + " 'buffer.page-size' (65536 bytes)"),
        guard(
            "table name not an Avro name",
            b -> b.tableName("1st"),
            "table name '1st' must be a valid Avro name ([A-Za-z_][A-Za-z0-9_]*); set option"
                + " 'table.name'"),
        guard(
            "16384 fields",
            b -> sink(WIDE_ROW).recordKey("f0"),
            "the row type has 16384 fields; the write buffer holds rows of at most 16383 fields"),
        guard(
            "ordering field not a column",
            b -> b.orderingField("nope"),
            "ordering.field 'nope' is not a column; columns are [id, name, ts, dt, amount]"),
        guard(
            "ordering field a string",
            b -> b.orderingField("name"),
            "ordering.field 'name' has type STRING; it must be TINYINT, SMALLINT, INT, BIGINT,"
                + " DATE, TIMESTAMP or DOUBLE"),
        guard(
            "ordering field TIMESTAMP(9)",
            b -> sink(NANOS).recordKey("id").orderingField("nanos"),
            "ordering.field 'nanos' has type TIMESTAMP(9); timestamps need precision <= 6"),
        guard(
            "record key not a column",
            b -> b.recordKey("nope"),
            "record key field 'nope' is not a column; columns are [id, name, ts, dt, amount]"),
        guard(
            "record key a double",
            b -> b.recordKey("amount"),
            "field 'amount' has type DOUBLE; record key and partition fields must be CHAR,"
                + " VARCHAR, BOOLEAN, an integer type, DECIMAL or DATE"),
        guard(
            "no record key",
            b -> b.recordKey(),
            "at least one record key field is required (PRIMARY KEY / recordKey), got none"),
        guard(
            "a TIMESTAMP(9) column",
            b -> sink(NANOS).recordKey("id"),
            "field t_record_nanos: timestamp precision 9 is not supported; Avro logical types hold"
                + " at most micros (precision 6)"),
        guard(
            "a map with integer keys",
            b -> sink(INT_KEYED_MAP).recordKey("id"),
            "field t_record_counts of type MAP<INT, INT> is not supported: Avro map keys must be"
                + " strings (CHAR/VARCHAR)"),
        guard(
            "block size 3 gb",
            b -> b.maxLogBlockSize(MemorySize.parse("3 gb")),
            "'log.max-block-size' must be in [1, 2080374783] bytes (Hudi reads block lengths as"
                + " int), got 3221225472 bytes"),
        guard(
            "block size 0 b",
            b -> b.maxLogBlockSize(MemorySize.parse("0 b")),
            "'log.max-block-size' must be in [1, 2080374783] bytes (Hudi reads block lengths as"
                + " int), got 0 bytes"),
        guard(
            "archive.min-commits equal to archive.max-commits",
            b -> b.archiveCommits(5, 5),
            "options 'archive.min-commits' and 'archive.max-commits': expected 1 <= min < max, got"
                + " 5 and 5"),
        guard(
            "archive.merge-batch 1",
            b -> b.archiveMergeBatch(1),
            "option 'archive.merge-batch' must be at least 2, got 1"),
        guard(
            "file size 0 b",
            b -> b.maxLogFileSize(MemorySize.parse("0 b")),
            "'log.max-file-size' must be positive, got 0 bytes"));
  }

  private static Arguments guard(
      String name, UnaryOperator<MortarSink.Builder> change, String message) {
    return Arguments.of(name, change, message);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("guards")
  void aBadValueFailsAtBuildNamingWhatToChange(
      String name, UnaryOperator<MortarSink.Builder> change, String message) {
    MortarSink.Builder builder = change.apply(sink(Changelog.ROW_TYPE).recordKey("id"));
    assertThatThrownBy(builder::build)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(message);
  }

  private static MortarSink.Builder sink(RowType rowType) {
    return MortarSink.builder(rowType).path(dir.resolve("t").toUri().toString());
  }
}
