package dev.mortar.writer;

import dev.mortar.buffer.BufferOptions;
import dev.mortar.buffer.Deduplication;
import dev.mortar.logformat.LogBlockFormat;
import dev.mortar.logformat.LogFormatOptions;
import dev.mortar.logformat.ParquetCodec;
import dev.mortar.writer.options.NullKeyPolicy;
import dev.mortar.writer.options.WriterOptions;
import java.time.Duration;
import java.util.List;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.MemorySize;

/**
 * Every option of the Mortar sink, shared by the SQL connector ({@code 'connector' = 'mortar'}) and
 * the {@link MortarSink} builder. Each is declared, with its default and description, by the module
 * that reads it ({@link WriterOptions}, {@link LogFormatOptions}, {@link BufferOptions}); this
 * class only gathers them. The README's "Options" table is rendered from these descriptions ({@code
 * OptionsTableTest} fails when it drifts).
 */
public final class MortarOptions {
  private MortarOptions() {}

  /** The table's base path (the writer module's option). */
  public static final ConfigOption<String> PATH = WriterOptions.PATH;

  /** Hudi table name (the writer module's option). */
  public static final ConfigOption<String> TABLE_NAME = WriterOptions.TABLE_NAME;

  /** Buckets per partition (the writer module's option). */
  public static final ConfigOption<Integer> BUCKETS = WriterOptions.BUCKETS;

  /** The column that orders versions of a key (the writer module's option). */
  public static final ConfigOption<String> ORDERING_FIELD = WriterOptions.ORDERING_FIELD;

  /** Format of the data blocks (the log format module's option). */
  public static final ConfigOption<LogBlockFormat> LOG_BLOCK_FORMAT = LogFormatOptions.BLOCK_FORMAT;

  /** Compression of parquet data blocks (the log format module's option). */
  public static final ConfigOption<ParquetCodec> LOG_PARQUET_CODEC = LogFormatOptions.PARQUET_CODEC;

  /** Dictionary encoding in parquet data blocks (the log format module's option). */
  public static final ConfigOption<Boolean> LOG_PARQUET_DICTIONARY =
      LogFormatOptions.PARQUET_DICTIONARY;

  /**
   * The per-column dictionary decision of parquet data blocks and base files (the log format
   * module's option).
   */
  public static final ConfigOption<Boolean> PARQUET_DICTIONARY_PER_COLUMN =
      LogFormatOptions.PARQUET_DICTIONARY_PER_COLUMN;

  /** Whether records carry Hudi's meta fields (the writer module's option). */
  public static final ConfigOption<Boolean> POPULATE_META_FIELDS =
      WriterOptions.POPULATE_META_FIELDS;

  /** Size at which a log file rolls over (the log format module's option). */
  public static final ConfigOption<MemorySize> LOG_MAX_FILE_SIZE = LogFormatOptions.MAX_FILE_SIZE;

  /** Size at which a data block is cut (the log format module's option). */
  public static final ConfigOption<MemorySize> LOG_MAX_BLOCK_SIZE = LogFormatOptions.MAX_BLOCK_SIZE;

  /** Direct I/O for local log files (the log format module's option). */
  public static final ConfigOption<Boolean> LOG_DIRECT_IO = LogFormatOptions.DIRECT_IO;

  /** Parallelism of the write tasks (the writer module's option). */
  public static final ConfigOption<Integer> SINK_PARALLELISM = WriterOptions.SINK_PARALLELISM;

  /** The write buffer's page memory per write task (the buffer module's option). */
  public static final ConfigOption<MemorySize> BUFFER_MEMORY = BufferOptions.MEMORY;

  /** Bucket size that starts a flush (the writer module's option). */
  public static final ConfigOption<MemorySize> WRITE_BATCH_SIZE = WriterOptions.WRITE_BATCH_SIZE;

  public static final ConfigOption<Integer> WRITE_FLUSH_THREADS = WriterOptions.WRITE_FLUSH_THREADS;

  public static final ConfigOption<Boolean> WRITE_NULL_FOR_MISSING_COLUMNS =
      WriterOptions.WRITE_NULL_FOR_MISSING_COLUMNS;

  /** Size of one buffer page (the buffer module's option). */
  public static final ConfigOption<MemorySize> BUFFER_PAGE_SIZE = BufferOptions.PAGE_SIZE;

  /** Pages off the Java heap (the buffer module's option). */
  public static final ConfigOption<Boolean> BUFFER_OFF_HEAP = BufferOptions.OFF_HEAP;

  /** Pages in Flink's managed memory (the buffer module's option). */
  public static final ConfigOption<Boolean> BUFFER_MANAGED_MEMORY = BufferOptions.MANAGED_MEMORY;

  /** When the buffer de-duplicates (the buffer module's option). */
  public static final ConfigOption<Deduplication> BUFFER_DEDUPLICATION =
      BufferOptions.DEDUPLICATION;

  /** What to do with a row without a record key (the writer module's option). */
  public static final ConfigOption<NullKeyPolicy> NULL_KEY_POLICY = WriterOptions.NULL_KEY_POLICY;

  /** Whether the committer schedules compactions (the writer module's option). */
  public static final ConfigOption<Boolean> COMPACTION_SCHEDULE_ENABLED =
      WriterOptions.COMPACTION_SCHEDULE_ENABLED;

  /** Time after which a compaction is due however few delta commits (writer module's option). */
  public static final ConfigOption<Duration> COMPACTION_INTERVAL =
      WriterOptions.COMPACTION_INTERVAL;

  /** Whether the job executes compaction plans (the writer module's option). */
  public static final ConfigOption<Boolean> COMPACTION_ASYNC_ENABLED =
      WriterOptions.COMPACTION_ASYNC_ENABLED;

  /** Parallelism of the compaction stage (the writer module's option). */
  public static final ConfigOption<Integer> COMPACTION_TASKS = WriterOptions.COMPACTION_TASKS;

  /** Memory of a compaction task's merge (the writer module's option). */
  public static final ConfigOption<MemorySize> COMPACTION_MEMORY = WriterOptions.COMPACTION_MEMORY;

  /** Delta commits between two compaction plans (the writer module's option). */
  public static final ConfigOption<Integer> COMPACTION_DELTA_COMMITS =
      WriterOptions.COMPACTION_DELTA_COMMITS;

  /** Logs' size against the base file's at which a slice is compacted (writer module's option). */
  public static final ConfigOption<Double> COMPACTION_LOG_SIZE_RATIO =
      WriterOptions.COMPACTION_LOG_SIZE_RATIO;

  /** Log files at which a slice is compacted whatever their size (writer module's option). */
  public static final ConfigOption<Integer> COMPACTION_MAX_LOG_FILES =
      WriterOptions.COMPACTION_MAX_LOG_FILES;

  /** Whether the job cleans after compactions (the writer module's option). */
  public static final ConfigOption<Boolean> CLEAN_ENABLED = WriterOptions.CLEAN_ENABLED;

  /** Completed commits a clean retains (the writer module's option). */
  public static final ConfigOption<Integer> CLEAN_RETAIN_COMMITS =
      WriterOptions.CLEAN_RETAIN_COMMITS;

  /** Whether the committer archives old instants (the writer module's option). */
  public static final ConfigOption<Boolean> ARCHIVE_ENABLED = WriterOptions.ARCHIVE_ENABLED;

  /** Completed commits an archival leaves active (the writer module's option). */
  public static final ConfigOption<Integer> ARCHIVE_MIN_COMMITS = WriterOptions.ARCHIVE_MIN_COMMITS;

  /** Completed commits beyond which an archival runs (the writer module's option). */
  public static final ConfigOption<Integer> ARCHIVE_MAX_COMMITS = WriterOptions.ARCHIVE_MAX_COMMITS;

  /** Archive files merged into one file of the next layer (the writer module's option). */
  public static final ConfigOption<Integer> ARCHIVE_MERGE_BATCH = WriterOptions.ARCHIVE_MERGE_BATCH;

  /** Pending compaction plans beyond which the writer stalls (the writer module's option). */
  public static final ConfigOption<Integer> WRITE_STALL_PENDING_COMPACTIONS =
      WriterOptions.WRITE_STALL_PENDING_COMPACTIONS;

  /** Compaction lag beyond which the writer stalls (the writer module's option). */
  public static final ConfigOption<Integer> WRITE_STALL_COMPACTION_LAG =
      WriterOptions.WRITE_STALL_COMPACTION_LAG;

  /** Longest input hold per checkpoint interval (the writer module's option). */
  public static final ConfigOption<Duration> WRITE_STALL_MAX_WAIT =
      WriterOptions.WRITE_STALL_MAX_WAIT;

  /** How long a dead writer's lease blocks the table (the writer module's option). */
  public static final ConfigOption<Duration> WRITER_LEASE_TIMEOUT =
      WriterOptions.WRITER_LEASE_TIMEOUT;

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
        PARQUET_DICTIONARY_PER_COLUMN,
        LOG_MAX_FILE_SIZE,
        LOG_MAX_BLOCK_SIZE,
        LOG_DIRECT_IO,
        SINK_PARALLELISM,
        WRITE_BATCH_SIZE,
        WRITE_FLUSH_THREADS,
        WRITE_NULL_FOR_MISSING_COLUMNS,
        BUFFER_MEMORY,
        BUFFER_PAGE_SIZE,
        BUFFER_OFF_HEAP,
        BUFFER_MANAGED_MEMORY,
        BUFFER_DEDUPLICATION,
        NULL_KEY_POLICY,
        COMPACTION_SCHEDULE_ENABLED,
        COMPACTION_DELTA_COMMITS,
        COMPACTION_INTERVAL,
        COMPACTION_LOG_SIZE_RATIO,
        COMPACTION_MAX_LOG_FILES,
        COMPACTION_ASYNC_ENABLED,
        COMPACTION_TASKS,
        COMPACTION_MEMORY,
        WRITE_STALL_PENDING_COMPACTIONS,
        WRITE_STALL_COMPACTION_LAG,
        WRITE_STALL_MAX_WAIT,
        CLEAN_ENABLED,
        CLEAN_RETAIN_COMMITS,
        ARCHIVE_ENABLED,
        ARCHIVE_MIN_COMMITS,
        ARCHIVE_MAX_COMMITS,
        ARCHIVE_MERGE_BATCH,
        WRITER_LEASE_TIMEOUT);
  }
}
