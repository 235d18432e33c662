package dev.mortar.logformat;

import dev.mortar.testing.RandomRows;
import dev.mortar.testing.Seeds;
import java.util.stream.Stream;
import org.apache.flink.table.types.logical.RowType;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Hudi's reader is the judge: random schemas and rows in every block flavour, read back equal. */
class LogFileWriterRoundTripTest {
  @TempDir java.nio.file.Path dir;

  static Stream<Arguments> flavours() {
    LogWriterOptions avro = LogWriterOptions.defaults();
    return Stream.of(
        Arguments.of("avro", avro),
        Arguments.of("avro-no-meta", avro.toBuilder().metaFields(false).build()),
        Arguments.of("parquet-snappy", parquet(ParquetCodec.SNAPPY)),
        Arguments.of("parquet-zstd", parquet(ParquetCodec.ZSTD)),
        Arguments.of("parquet-gzip", parquet(ParquetCodec.GZIP)),
        Arguments.of("parquet-none", parquet(ParquetCodec.NONE)),
        Arguments.of(
            "parquet-snappy-no-dictionary",
            parquet(ParquetCodec.SNAPPY).toBuilder().parquetDictionary(false).build()),
        Arguments.of(
            "parquet-snappy-dictionary-every-column",
            parquet(ParquetCodec.SNAPPY).toBuilder().parquetDictionaryPerColumn(false).build()));
  }

  private static LogWriterOptions parquet(ParquetCodec codec) {
    return LogWriterOptions.builder()
        .blockFormat(LogBlockFormat.PARQUET)
        .parquetCodec(codec)
        .build();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("flavours")
  void randomSchemasAndRowsReadBackEqual(String flavour, LogWriterOptions options)
      throws Exception {
    long seed = Seeds.seed("randomSchemasAndRowsReadBackEqual[" + flavour + "]");
    RandomRows random = new RandomRows(seed);
    FileSystem fs = FileSystem.getLocal(new Configuration());
    int iterations = Seeds.size("mortar.iterations", 6);
    for (int i = 0; i < iterations; i++) {
      RowType rowType =
          i == 0
              ? random.tableRowTypeOfEveryKind()
              : random.tableRowType(1 + (int) ((seed + i) & 7));
      // Small blocks in some runs, so records are cut into several blocks.
      long blockSize = i % 2 == 0 ? 8 << 10 : 1 << 20;
      LogWriterOptions runOptions = options.toBuilder().maxBlockSizeBytes(blockSize).build();
      Path base = new Path(dir.toUri().toString(), "t" + i);
      RoundTrip.writeAndVerify(
          fs, base, runOptions, random, rowType, 200, i % 3 == 0 ? 0 : 25, seed + i);
    }
  }

  @Test
  void megabyteStringsReadBackEqual() throws Exception {
    long seed = Seeds.seed("megabyteStringsReadBackEqual");
    RandomRows random = new RandomRows(seed);
    FileSystem fs = FileSystem.getLocal(new Configuration());
    RowType rowType = random.tableRowTypeOfEveryKind();
    random.allowHugeStrings(3);
    Path base = new Path(dir.toUri().toString(), "huge");
    RoundTrip.writeAndVerify(fs, base, LogWriterOptions.defaults(), random, rowType, 20, 2, seed);
  }
}
