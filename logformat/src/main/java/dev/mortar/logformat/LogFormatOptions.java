package dev.mortar.logformat;

import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.ReadableConfig;

/**
 * The options of the log writer ({@code log.*}, and {@code parquet.*} for what log blocks share
 * with compaction's base files), declared with their defaults once, here; {@link #builder} turns a
 * configuration into the {@link LogWriterOptions} they set.
 */
public final class LogFormatOptions {
  public static final ConfigOption<LogBlockFormat> BLOCK_FORMAT =
      ConfigOptions.key("log.block.format")
          .enumType(LogBlockFormat.class)
          .defaultValue(LogBlockFormat.AVRO)
          .withDescription("Format of the data blocks in log files: 'avro' or 'parquet'.");

  public static final ConfigOption<ParquetCodec> PARQUET_CODEC =
      ConfigOptions.key("log.parquet.codec")
          .enumType(ParquetCodec.class)
          .defaultValue(ParquetCodec.SNAPPY)
          .withDescription(
              "Compression of parquet data blocks: 'snappy', 'zstd', 'gzip' or 'none'.");

  public static final ConfigOption<Boolean> PARQUET_DICTIONARY =
      ConfigOptions.key("log.parquet.dictionary")
          .booleanType()
          .defaultValue(true)
          .withDescription("Dictionary encoding in parquet data blocks (Hudi's default: on).");

  public static final ConfigOption<Boolean> PARQUET_DICTIONARY_PER_COLUMN =
      ConfigOptions.key("parquet.dictionary.per-column")
          .booleanType()
          .defaultValue(true)
          .withDescription(
              "Each parquet data block (with 'log.parquet.dictionary' on) and each base file"
                  + " compaction writes samples its first 1024 records and leaves dictionary"
                  + " encoding off for the columns whose sample shows more distinct values than a"
                  + " dictionary page holds (unique keys, random text), which would only fall"
                  + " back to plain encoding. 'false': every column tries a dictionary, as Hudi's"
                  + " writer does.");

  public static final ConfigOption<MemorySize> MAX_FILE_SIZE =
      ConfigOptions.key("log.max-file-size")
          .memoryType()
          .defaultValue(MemorySize.ofMebiBytes(1024))
          .withDescription("A log file rolls over to a new version past this size.");

  public static final ConfigOption<MemorySize> MAX_BLOCK_SIZE =
      ConfigOptions.key("log.max-block-size")
          .memoryType()
          .noDefaultValue()
          .withDescription(
              "A data block is cut past this size. Default: 8 mb for avro blocks, 128 mb for"
                  + " parquet blocks (Hudi: 128 mb). A write task encodes a whole block in memory"
                  + " before writing it.");

  public static final ConfigOption<Boolean> DIRECT_IO =
      ConfigOptions.key("log.direct-io")
          .booleanType()
          .defaultValue(true)
          .withDescription(
              "Write log files on a local disk with direct I/O (O_DIRECT): the bytes skip the"
                  + " page cache, which saves most of the CPU a write costs, and no Hadoop .crc"
                  + " file is written. Where the file system refuses direct I/O (tmpfs), and on"
                  + " HDFS, files go through Hadoop's file system as with 'false'.");

  private LogFormatOptions() {}

  /**
   * The log writer's options as {@code config} sets them; the caller adds what comes from the table
   * (meta fields, Avro record name), and {@link LogWriterOptions.Builder#build()} fails naming the
   * option of a bad value.
   */
  public static LogWriterOptions.Builder builder(ReadableConfig config) {
    LogWriterOptions.Builder builder =
        LogWriterOptions.builder()
            .blockFormat(config.get(BLOCK_FORMAT))
            .parquetCodec(config.get(PARQUET_CODEC))
            .parquetDictionary(config.get(PARQUET_DICTIONARY))
            .parquetDictionaryPerColumn(config.get(PARQUET_DICTIONARY_PER_COLUMN))
            .directIo(config.get(DIRECT_IO))
            .maxFileSizeBytes(config.get(MAX_FILE_SIZE).getBytes());
    config
        .getOptional(MAX_BLOCK_SIZE)
        .ifPresent(size -> builder.maxBlockSizeBytes(size.getBytes()));
    return builder;
  }
}
