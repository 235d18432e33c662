package dev.mortar.logformat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.flink.configuration.MemorySize;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;

/** Guards say what was expected, what was found and what to change. */
class LogWriterOptionsTest {

  @Test
  void defaultsAreHudisFlinkDefaultsButTheAvroBlockSize() {
    LogWriterOptions options = LogWriterOptions.defaults();
    assertThat(options.maxFileSizeBytes()).isEqualTo(1L << 30);
    assertThat(options.maxBlockSizeBytes()).isEqualTo(8L << 20);
    assertThat(options.toBuilder().blockFormat(LogBlockFormat.PARQUET).build().maxBlockSizeBytes())
        .as("parquet blocks keep Hudi's 128 MiB")
        .isEqualTo(128L << 20);
    assertThat(options.blockFormat()).isEqualTo(LogBlockFormat.AVRO);
    assertThat(options.parquetCodec()).isEqualTo(ParquetCodec.SNAPPY);
    assertThat(options.metaFields()).isTrue();
    assertThat(options.parquetDictionaryPerColumn()).isTrue();
  }

  @Test
  void aBlockSizeThatWasSetOutlivesAChangeOfFormat() {
    LogWriterOptions avro = LogWriterOptions.builder().maxBlockSizeBytes(1 << 20).build();
    LogWriterOptions parquet = avro.toBuilder().blockFormat(LogBlockFormat.PARQUET).build();
    assertThat(parquet.maxBlockSizeBytes()).isEqualTo(1 << 20);
    assertThat(parquet.toBuilder().blockFormat(LogBlockFormat.AVRO).build().maxBlockSizeBytes())
        .isEqualTo(1 << 20);
  }

  @Test
  void invalidSizesAreRejectedWithTheValue() {
    assertThatThrownBy(() -> LogWriterOptions.builder().maxFileSizeBytes(0).build())
        .hasMessage("'log.max-file-size' must be positive, got 0 bytes");
    assertThatThrownBy(() -> LogWriterOptions.builder().maxBlockSizeBytes(3L << 30).build())
        .hasMessage(
            "'log.max-block-size' must be in [1, 2080374783] bytes (Hudi reads block lengths as"
                + " int), got 3221225472 bytes");
  }

  @Test
  void aConfigurationSetsEveryLogOption() {
    var config = new org.apache.flink.configuration.Configuration();
    config.set(LogFormatOptions.BLOCK_FORMAT, LogBlockFormat.PARQUET);
    config.set(LogFormatOptions.PARQUET_CODEC, ParquetCodec.ZSTD);
    config.set(LogFormatOptions.PARQUET_DICTIONARY, false);
    config.set(LogFormatOptions.PARQUET_DICTIONARY_PER_COLUMN, false);
    config.set(LogFormatOptions.DIRECT_IO, false);
    config.set(LogFormatOptions.MAX_FILE_SIZE, MemorySize.parse("2 mb"));
    config.set(LogFormatOptions.MAX_BLOCK_SIZE, MemorySize.parse("1 mb"));
    LogWriterOptions options = LogFormatOptions.builder(config).build();
    assertThat(options.blockFormat()).isEqualTo(LogBlockFormat.PARQUET);
    assertThat(options.parquetCodec()).isEqualTo(ParquetCodec.ZSTD);
    assertThat(options.parquetDictionary()).isFalse();
    assertThat(options.parquetDictionaryPerColumn()).isFalse();
    assertThat(options.directIo()).isFalse();
    assertThat(options.maxFileSizeBytes()).isEqualTo(2L << 20);
    assertThat(options.maxBlockSizeBytes()).isEqualTo(1L << 20);
    assertThat(
            LogFormatOptions.builder(new org.apache.flink.configuration.Configuration())
                .build()
                .toString())
        .as("an empty configuration gives the defaults")
        .isEqualTo(LogWriterOptions.defaults().toString());
  }

  @Test
  void namesHudiCannotParseAreRejected() throws Exception {
    FileSystem fs = FileSystem.getLocal(new Configuration());
    RowType rowType = RowType.of(new BigIntType(false));
    assertThatThrownBy(
            () ->
                new LogFileWriter(
                    fs,
                    new Path("/tmp/x"),
                    "",
                    "a_b",
                    "1",
                    "0-0-0",
                    rowType,
                    LogWriterOptions.defaults()))
        .hasMessageContaining("fileId 'a_b' must be non-empty and contain neither '.' nor '_'");
    assertThatThrownBy(
            () ->
                new LogFileWriter(
                    fs,
                    new Path("/tmp/x"),
                    "",
                    "ab",
                    "1",
                    "0",
                    rowType,
                    LogWriterOptions.defaults()))
        .hasMessageContaining("writeToken '0' must be <taskPartition>-<stage>-<attempt>");
  }

  @Test
  void unsupportedTypesNameTheField() {
    RowType nanos = RowType.of(new LogicalType[] {new TimestampType(9)}, new String[] {"ts"});
    assertThatThrownBy(() -> AvroSchemas.of(nanos, "r", false))
        .hasMessageContaining("field r_ts: timestamp precision 9 is not supported");
    RowType intKeys =
        RowType.of(
            new LogicalType[] {new MapType(new BigIntType(), VarCharType.STRING_TYPE)},
            new String[] {"m"});
    assertThatThrownBy(() -> AvroSchemas.of(intKeys, "r", false))
        .hasMessageContaining("Avro map keys must be strings");
  }
}
