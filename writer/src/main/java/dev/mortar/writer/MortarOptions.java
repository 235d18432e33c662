package dev.mortar.writer;

import dev.mortar.buffer.BufferOptions;
import dev.mortar.buffer.Deduplication;
import dev.mortar.logformat.LogBlockFormat;
import dev.mortar.logformat.ParquetCodec;
import java.util.List;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.MemorySize;

/**
 * Every option of the Mortar sink, shared by the SQL connector ({@code 'connector' = 'mortar'}) and
 * the {@link MortarSink} builder. The README's "Options" table is rendered from these descriptions
 * ({@code OptionsTableTest} fails when it drifts).
 */
public final class MortarOptions {
  private MortarOptions() {}

  public static final ConfigOption<String> PATH =
      ConfigOptions.key("path")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "Base path of the Hudi table, any Hadoop file system URI (file:///..., hdfs://...).");

  public static final ConfigOption<String> TABLE_NAME =
      ConfigOptions.key("table.name")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "Hudi table name (hoodie.table.name). Defaults to the SQL table name, or to the last"
                  + " segment of the path in the DataStream API.");

  public static final ConfigOption<Integer> BUCKETS =
      ConfigOptions.key("buckets")
          .intType()
          .defaultValue(4)
          .withDescription(
              "Number of buckets (file groups) per partition of Hudi's simple bucket index. Fixed"
                  + " for the life of the table.");

  public static final ConfigOption<String> ORDERING_FIELD =
      ConfigOptions.key("ordering.field")
          .stringType()
          .noDefaultValue()
          .withDescription(
              "Column that orders versions of a key (event-time ordering: a later arrival with a"
                  + " smaller value loses). Integer, BIGINT, DATE, TIMESTAMP or DOUBLE. Without it"
                  + " the last write wins.");

  public static final ConfigOption<LogBlockFormat> LOG_BLOCK_FORMAT =
      ConfigOptions.key("log.block.format")
          .enumType(LogBlockFormat.class)
          .defaultValue(LogBlockFormat.AVRO)
          .withDescription("Format of the data blocks in log files: 'avro' or 'parquet'.");

  public static final ConfigOption<ParquetCodec> LOG_PARQUET_CODEC =
      ConfigOptions.key("log.parquet.codec")
          .enumType(ParquetCodec.class)
          .defaultValue(ParquetCodec.SNAPPY)
          .withDescription(
              "Compression of parquet data blocks: 'snappy', 'zstd', 'gzip' or 'none'.");

  public static final ConfigOption<Boolean> LOG_PARQUET_DICTIONARY =
      ConfigOptions.key("log.parquet.dictionary")
          .booleanType()
          .defaultValue(true)
          .withDescription("Dictionary encoding in parquet data blocks (Hudi's default: on).");

  public static final ConfigOption<Boolean> POPULATE_META_FIELDS =
      ConfigOptions.key("hoodie.populate.meta.fields")
          .booleanType()
          .defaultValue(true)
          .withDescription(
              "Write Hudi's five meta fields (commit time, sequence number, record key, partition"
                  + " path, file id) into every record, as Hudi does by default. 'false' writes the"
                  + " row alone (Hudi's readers then take the key from the record key fields):"
                  + " about 100 bytes less per record. Recorded in hoodie.properties; a sink must"
                  + " match an existing table.");

  public static final ConfigOption<MemorySize> LOG_MAX_FILE_SIZE =
      ConfigOptions.key("log.max-file-size")
          .memoryType()
          .defaultValue(MemorySize.ofMebiBytes(1024))
          .withDescription("A log file rolls over to a new version past this size.");

  public static final ConfigOption<MemorySize> LOG_MAX_BLOCK_SIZE =
      ConfigOptions.key("log.max-block-size")
          .memoryType()
          .noDefaultValue()
          .withDescription(
              "A data block is cut past this size. Default: 8 mb for avro blocks, 128 mb for"
                  + " parquet blocks (Hudi: 128 mb). A write task encodes a whole block in memory"
                  + " before writing it.");

  public static final ConfigOption<Boolean> LOG_DIRECT_IO =
      ConfigOptions.key("log.direct-io")
          .booleanType()
          .defaultValue(true)
          .withDescription(
              "Write log files on a local disk with direct I/O (O_DIRECT): the bytes skip the"
                  + " page cache, which saves most of the CPU a write costs, and no Hadoop .crc"
                  + " file is written. Where the file system refuses direct I/O (tmpfs), and on"
                  + " HDFS, files go through Hadoop's file system as with 'false'.");

  public static final ConfigOption<Integer> SINK_PARALLELISM =
      ConfigOptions.key("sink.parallelism")
          .intType()
          .noDefaultValue()
          .withDescription(
              "Parallelism of the write tasks. Defaults to the parallelism of the input. One"
                  + " write task behind an input of parallelism 1 takes the rows without a shuffle"
                  + " (chained to the input).");

  /** The write buffer's page memory per write task (the buffer module's option). */
  public static final ConfigOption<MemorySize> BUFFER_MEMORY = BufferOptions.MEMORY;

  public static final ConfigOption<MemorySize> WRITE_BATCH_SIZE =
      ConfigOptions.key("write.batch-size")
          .memoryType()
          .defaultValue(MemorySize.ofMebiBytes(64))
          .withDescription(
              "A bucket is flushed to a new log file when it holds more than this; every"
                  + " checkpoint flushes all buckets.");

  /** Size of one buffer page (the buffer module's option). */
  public static final ConfigOption<MemorySize> BUFFER_PAGE_SIZE = BufferOptions.PAGE_SIZE;

  /** Pages off the Java heap (the buffer module's option). */
  public static final ConfigOption<Boolean> BUFFER_OFF_HEAP = BufferOptions.OFF_HEAP;

  /** When the buffer de-duplicates (the buffer module's option). */
  public static final ConfigOption<Deduplication> BUFFER_DEDUPLICATION =
      BufferOptions.DEDUPLICATION;

  public static final ConfigOption<NullKeyPolicy> NULL_KEY_POLICY =
      ConfigOptions.key("null-key.policy")
          .enumType(NullKeyPolicy.class)
          .defaultValue(NullKeyPolicy.FAIL)
          .withDescription(
              "What to do with a row whose record key is null or empty: 'fail' the job naming the"
                  + " field and row, or 'drop' it and count it in the numNullKeyRowsDropped metric.");

  /** What the sink does with a row that has no record key. */
  public enum NullKeyPolicy {
    FAIL,
    DROP
  }

  /** Every option, in the order the README lists them. */
  public static List<ConfigOption<?>> all() {
    return List.of(
        PATH,
        TABLE_NAME,
        BUCKETS,
        ORDERING_FIELD,
        POPULATE_META_FIELDS,
        LOG_BLOCK_FORMAT,
        LOG_PARQUET_CODEC,
        LOG_PARQUET_DICTIONARY,
        LOG_MAX_FILE_SIZE,
        LOG_MAX_BLOCK_SIZE,
        LOG_DIRECT_IO,
        SINK_PARALLELISM,
        WRITE_BATCH_SIZE,
        BUFFER_MEMORY,
        BUFFER_PAGE_SIZE,
        BUFFER_OFF_HEAP,
        BUFFER_DEDUPLICATION,
        NULL_KEY_POLICY);
  }
}
