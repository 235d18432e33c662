package dev.mortar.logformat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
        .hasMessage("maxFileSizeBytes must be positive, got 0");
    assertThatThrownBy(() -> LogWriterOptions.builder().maxBlockSizeBytes(3L << 30).build())
        .hasMessageContaining("maxBlockSizeBytes must be in [1, 2080374783]")
        .hasMessageContaining("got 3221225472");
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
