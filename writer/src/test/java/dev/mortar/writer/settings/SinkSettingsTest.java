package dev.mortar.writer.settings;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mortar.logformat.LogBlockFormat;
import dev.mortar.writer.MortarSink;
import dev.mortar.writer.it.Changelog;
import java.nio.file.Path;
import org.apache.flink.configuration.MemorySize;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Options the sink resolves itself before they reach the log writer. */
class SinkSettingsTest {
  @TempDir Path dir;

  @ParameterizedTest(name = "{0} blocks, log.max-block-size {1}: {2} bytes")
  @CsvSource({"AVRO,,8388608", "PARQUET,,134217728", "AVRO,32 mb,33554432", "PARQUET,1 mb,1048576"})
  void theBlockSizeIsTheBlockFormatsDefaultUnlessSet(
      LogBlockFormat format, String blockSize, long expectedBytes) {
    MortarSink.Builder builder =
        MortarSink.builder(Changelog.ROW_TYPE)
            .path(dir.resolve("t").toUri().toString())
            .recordKey("id")
            .logBlockFormat(format);
    if (blockSize != null) {
      builder.maxLogBlockSize(MemorySize.parse(blockSize));
    }
    assertThat(builder.build().settings().logWriterOptions().maxBlockSizeBytes())
        .isEqualTo(expectedBytes);
  }
}
