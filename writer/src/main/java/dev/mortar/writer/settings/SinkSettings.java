package dev.mortar.writer.settings;

import dev.mortar.buffer.BucketBuffer;
import dev.mortar.buffer.BufferOptions;
import dev.mortar.buffer.Deduplication;
import dev.mortar.buffer.PagePool;
import dev.mortar.logformat.LogFormatOptions;
import dev.mortar.logformat.LogWriterOptions;
import dev.mortar.writer.archive.ArchivalPolicy;
import dev.mortar.writer.input.KeyFields;
import dev.mortar.writer.input.OrderingField;
import dev.mortar.writer.options.CompactionTrigger;
import dev.mortar.writer.options.LogSizeThreshold;
import dev.mortar.writer.options.NullKeyPolicy;
import dev.mortar.writer.options.WriterOptions;
import dev.mortar.writer.table.ExistingTable;
import dev.mortar.writer.table.TableSettings;
import dev.mortar.writer.table.WriterFence;
import java.io.Serializable;
import java.time.Duration;
import java.util.List;
import javax.annotation.Nullable;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.table.types.logical.RowType;
import org.apache.hadoop.fs.FileSystem;

/**
 * The sink's settings, resolved and validated once when the job is built and shipped to every
 * operator: the writer's own options ({@link WriterOptions}) as typed values, the schema's keys,
 * and the configuration from which the buffer ({@code BufferOptions}) and the log format ({@link
 * LogFormatOptions}) build their own options. {@link #of} builds every module's options once, so
 * each bad value fails at job build with the value found, what is allowed and the option to change.
 */
public final class SinkSettings implements Serializable {
  private static final long serialVersionUID = 1L;

  /** Every option as set, for the modules that turn it into their own options. */
  private final Configuration options;

  private final String basePath;
  private final String tableName;
  private final RowType rowType;
  private final List<String> recordKeyFields;
  private final List<String> partitionFields;
  @Nullable private final String orderingField;
  private final int buckets;
  @Nullable private final Integer parallelism;
  private final long batchBytes;
  private final int flushThreads;
  private final NullKeyPolicy nullKeyPolicy;
  private final boolean populateMetaFields;
  private final boolean compactionScheduling;
  private final int compactionDeltaCommits;
  private final boolean compactionExecution;
  @Nullable private final Integer compactionTasks;
  private final long compactionMemoryBytes;
  private final boolean cleaning;
  private final int cleanRetainCommits;
  private final int stallPendingCompactions;
  private final int stallCompactionLag;
  private final long stallMaxWaitMillis;

  /**
   * For each column of {@link #rowType}, the field of the sink's input that holds it, -1 where the
   * input lacks it ({@link WriterOptions#WRITE_NULL_FOR_MISSING_COLUMNS}); null when the input rows
   * are of {@link #rowType}.
   */
  @Nullable private final int[] inputFields;

  private SinkSettings(
      ReadableConfig options,
      RowType rowType,
      List<String> recordKeyFields,
      List<String> partitionFields,
      String tableName,
      @Nullable int[] inputFields) {
    this.options = Configuration.fromMap(options.toMap());
    this.basePath =
        options
            .getOptional(WriterOptions.PATH)
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "option '"
                            + WriterOptions.PATH.key()
                            + "' (the table base path) is required"));
    this.tableName = tableName;
    this.rowType = rowType;
    this.recordKeyFields = List.copyOf(recordKeyFields);
    this.partitionFields = List.copyOf(partitionFields);
    this.orderingField = options.get(WriterOptions.ORDERING_FIELD);
    this.buckets = options.get(WriterOptions.BUCKETS);
    this.parallelism = options.get(WriterOptions.SINK_PARALLELISM);
    this.batchBytes = options.get(WriterOptions.WRITE_BATCH_SIZE).getBytes();
    this.flushThreads = options.get(WriterOptions.WRITE_FLUSH_THREADS);
    this.nullKeyPolicy = options.get(WriterOptions.NULL_KEY_POLICY);
    this.populateMetaFields = options.get(WriterOptions.POPULATE_META_FIELDS);
    this.compactionScheduling = options.get(WriterOptions.COMPACTION_SCHEDULE_ENABLED);
    this.compactionDeltaCommits = options.get(WriterOptions.COMPACTION_DELTA_COMMITS);
    this.compactionExecution = options.get(WriterOptions.COMPACTION_ASYNC_ENABLED);
    this.compactionTasks = options.get(WriterOptions.COMPACTION_TASKS);
    this.compactionMemoryBytes = options.get(WriterOptions.COMPACTION_MEMORY).getBytes();
    this.cleaning = options.get(WriterOptions.CLEAN_ENABLED);
    this.cleanRetainCommits = options.get(WriterOptions.CLEAN_RETAIN_COMMITS);
    this.stallPendingCompactions = options.get(WriterOptions.WRITE_STALL_PENDING_COMPACTIONS);
    this.stallCompactionLag = options.get(WriterOptions.WRITE_STALL_COMPACTION_LAG);
    this.stallMaxWaitMillis = options.get(WriterOptions.WRITE_STALL_MAX_WAIT).toMillis();
    this.inputFields = inputFields;
  }

  /**
   * Resolves and validates the settings.
   *
   * @param defaultTableName used when the option 'table.name' is not set
   * @throws IllegalArgumentException naming the offending option or field
   */
  public static SinkSettings of(
      ReadableConfig options,
      RowType rowType,
      List<String> recordKeyFields,
      List<String> partitionFields,
      String defaultTableName) {
    String tableName = options.getOptional(WriterOptions.TABLE_NAME).orElse(defaultTableName);
    SinkSettings settings =
        new SinkSettings(options, rowType, recordKeyFields, partitionFields, tableName, null);
    settings.validate();
    return settings;
  }

  /**
   * These settings checked against the table already at the base path, if any ({@link
   * ExistingTable#validate}); for a sink that lacks some of its columns, the settings of the
   * table's row type, which the sink's input is mapped to.
   *
   * @throws IllegalStateException naming what differs from the table
   */
  public SinkSettings checkedAgainstExistingTable() {
    return ExistingTable.validate(
            basePath,
            tableSettings(),
            buckets,
            options.get(WriterOptions.WRITE_NULL_FOR_MISSING_COLUMNS))
        .map(
            missing -> {
              SinkSettings settings =
                  new SinkSettings(
                      options,
                      missing.rowType(),
                      recordKeyFields,
                      partitionFields,
                      tableName,
                      missing.inputFields());
              settings.validate();
              return settings;
            })
        .orElse(this);
  }

  /**
   * For each column of {@link #rowType}, the input's field that holds it or -1; null when the input
   * rows are of {@link #rowType}.
   */
  @Nullable
  public int[] inputFields() {
    return inputFields;
  }

  private void validate() {
    requirePositive(WriterOptions.BUCKETS, buckets);
    if (parallelism != null) {
      requirePositive(WriterOptions.SINK_PARALLELISM, parallelism);
    }
    if (batchBytes <= 0) {
      throw new IllegalArgumentException(
          "option '"
              + WriterOptions.WRITE_BATCH_SIZE.key()
              + "' must be > 0, got "
              + batchBytes
              + " bytes");
    }
    requirePositive(WriterOptions.WRITE_FLUSH_THREADS, flushThreads);
    Duration interval = options.get(WriterOptions.COMPACTION_INTERVAL);
    if (interval != null && interval.toMillis() < 1) {
      throw new IllegalArgumentException(
          "option '"
              + WriterOptions.COMPACTION_INTERVAL.key()
              + "' must be at least 1 ms, got "
              + interval);
    }
    if (writerLeaseTimeout().toMillis() < 100) {
      throw new IllegalArgumentException(
          "option '"
              + WriterOptions.WRITER_LEASE_TIMEOUT.key()
              + "' must be at least 100 ms, got "
              + writerLeaseTimeout());
    }
    requirePositive(WriterOptions.COMPACTION_DELTA_COMMITS, compactionDeltaCommits);
    compactionThreshold();
    if (archiveEnabled()) {
      archivalPolicy();
    }
    if (compactionTasks != null) {
      requirePositive(WriterOptions.COMPACTION_TASKS, compactionTasks);
    }
    requirePositive(WriterOptions.CLEAN_RETAIN_COMMITS, cleanRetainCommits);
    requireNotNegative(WriterOptions.WRITE_STALL_PENDING_COMPACTIONS, stallPendingCompactions);
    requireNotNegative(WriterOptions.WRITE_STALL_COMPACTION_LAG, stallCompactionLag);
    if (stallMaxWaitMillis <= 0) {
      throw new IllegalArgumentException(
          "option '"
              + WriterOptions.WRITE_STALL_MAX_WAIT.key()
              + "' must be > 0 ms, got "
              + stallMaxWaitMillis
              + " ms");
    }
    newPagePool().close();
    long pageSize = options.get(BufferOptions.PAGE_SIZE).getBytes();
    if (bufferBytes() < minimumBufferBytes()) {
      throw new IllegalArgumentException(
          "option '"
              + BufferOptions.MEMORY.key()
              + "' ("
              + bufferBytes()
              + " bytes) must hold at least 3 pages of '"
              + BufferOptions.PAGE_SIZE.key()
              + "' ("
              + pageSize
              + " bytes)");
    }
    if (!tableName.matches("[A-Za-z_][A-Za-z0-9_]*")) {
      throw new IllegalArgumentException(
          "table name '"
              + tableName
              + "' must be a valid Avro name ([A-Za-z_][A-Za-z0-9_]*); set option '"
              + WriterOptions.TABLE_NAME.key()
              + "'");
    }
    if (rowType.getFieldCount() > BucketBuffer.MAX_ROW_FIELDS) {
      throw new IllegalArgumentException(
          "the row type has "
              + rowType.getFieldCount()
              + " fields; the write buffer holds rows of at most "
              + BucketBuffer.MAX_ROW_FIELDS
              + " fields");
    }
    OrderingField.of(rowType, orderingField);
    KeyFields.check(rowType, recordKeyFields, "record key");
    KeyFields.check(rowType, partitionFields, "partition");
    tableSettings().avroSchema();
    logWriterOptions();
    long compactionPages = compactionMemoryBytes / options.get(BufferOptions.PAGE_SIZE).getBytes();
    if (compactionScheduling && compactionExecution && compactionPages < 3) {
      throw new IllegalArgumentException(
          "option '"
              + WriterOptions.COMPACTION_MEMORY.key()
              + "' ("
              + compactionMemoryBytes
              + " bytes) must hold at least 3 pages of '"
              + BufferOptions.PAGE_SIZE.key()
              + "'");
    }
    if (compactionScheduling && !populateMetaFields) {
      throw new IllegalArgumentException(
          "option '"
              + WriterOptions.COMPACTION_SCHEDULE_ENABLED.key()
              + "' needs '"
              + WriterOptions.POPULATE_META_FIELDS.key()
              + "' = true: compaction takes each record's key from its meta fields; turn"
              + " compaction off or the meta fields on");
    }
  }

  public String basePath() {
    return basePath;
  }

  public String tableName() {
    return tableName;
  }

  public RowType rowType() {
    return rowType;
  }

  public List<String> recordKeyFields() {
    return recordKeyFields;
  }

  public List<String> partitionFields() {
    return partitionFields;
  }

  @Nullable
  public String orderingField() {
    return orderingField;
  }

  public int buckets() {
    return buckets;
  }

  @Nullable
  public Integer parallelism() {
    return parallelism;
  }

  /** The write buffer's page memory per write task ({@code buffer.memory}). */
  public long bufferBytes() {
    return options.get(BufferOptions.MEMORY).getBytes();
  }

  public long batchBytes() {
    return batchBytes;
  }

  public int flushThreads() {
    return flushThreads;
  }

  /** A write task's page pool: {@code buffer.page-size} pages, {@code buffer.memory} in all. */
  public PagePool newPagePool() {
    return BufferOptions.newPagePool(options);
  }

  /** Whether the write tasks' pages come from Flink's managed memory. */
  public boolean managedBufferMemory() {
    return options.get(BufferOptions.MANAGED_MEMORY);
  }

  /**
   * The write operator's weight among its slot's consumers of managed memory: {@code buffer.memory}
   * in MiB, at least 1.
   */
  public int managedBufferWeight() {
    return (int) Math.max(1, Math.min(Integer.MAX_VALUE, bufferBytes() >> 20));
  }

  /** The smallest page pool a write task works with: 3 pages. */
  public long minimumBufferBytes() {
    return 3L * options.get(BufferOptions.PAGE_SIZE).getBytes();
  }

  /** A write task's page pool of {@code budgetBytes} off the heap: its share of managed memory. */
  public PagePool newManagedPagePool(long budgetBytes) {
    return BufferOptions.newPagePool(
        options.get(BufferOptions.PAGE_SIZE).getBytes(), budgetBytes, true);
  }

  public Deduplication deduplication() {
    return options.get(BufferOptions.DEDUPLICATION);
  }

  public NullKeyPolicy nullKeyPolicy() {
    return nullKeyPolicy;
  }

  /** Whether the committer schedules compactions ({@code compaction.schedule.enabled}). */
  public boolean compactionScheduling() {
    return compactionScheduling;
  }

  /** When a compaction is due: delta commits, or time, after the latest compaction. */
  public CompactionTrigger compactionTrigger() {
    return new CompactionTrigger(
        compactionDeltaCommits, options.get(WriterOptions.COMPACTION_INTERVAL));
  }

  /** Which slices a plan takes: by their logs' size against their base file's. */
  public LogSizeThreshold compactionThreshold() {
    return new LogSizeThreshold(
        options.get(WriterOptions.COMPACTION_LOG_SIZE_RATIO),
        options.get(WriterOptions.COMPACTION_MAX_LOG_FILES));
  }

  /** Whether the job executes the compaction plans ({@code compaction.async.enabled}). */
  public boolean compactionExecution() {
    return compactionScheduling && compactionExecution;
  }

  /** Whether the committer archives old instants ({@code archive.enabled}). */
  public boolean archiveEnabled() {
    return options.get(WriterOptions.ARCHIVE_ENABLED);
  }

  /**
   * When the committer archives ({@code archive.min-commits}, {@code archive.max-commits}, {@code
   * archive.merge-batch}).
   */
  public ArchivalPolicy archivalPolicy() {
    return new ArchivalPolicy(
        options.get(WriterOptions.ARCHIVE_MIN_COMMITS),
        options.get(WriterOptions.ARCHIVE_MAX_COMMITS),
        options.get(WriterOptions.ARCHIVE_MERGE_BATCH));
  }

  /** How long after its last heartbeat a writer's lease expires ({@code writer.lease.timeout}). */
  public Duration writerLeaseTimeout() {
    return options.get(WriterOptions.WRITER_LEASE_TIMEOUT);
  }

  /** The fence of Flink job {@code jobId}'s hold on this table's writer lease (rfc/0004). */
  public WriterFence writerFence(FileSystem fs, String jobId) {
    return WriterFence.of(fs, basePath(), writerLeaseTimeout(), jobId);
  }

  /** Parallelism of the compaction stage, or null for the write parallelism. */
  @Nullable
  public Integer compactionTasks() {
    return compactionTasks;
  }

  /** Whether the job cleans after the compactions it commits ({@code clean.enabled}). */
  public boolean cleaning() {
    return compactionExecution() && cleaning;
  }

  /** The completed commits a clean keeps every file for ({@code clean.retain-commits}). */
  public int cleanRetainCommits() {
    return cleanRetainCommits;
  }

  /**
   * Whether the write tasks stall when compaction falls behind: compaction is scheduled and one of
   * the two limits is set.
   */
  public boolean writeStall() {
    return compactionScheduling && (stallPendingCompactions > 0 || stallCompactionLag > 0);
  }

  /** Pending plans beyond which the writer stalls, 0 for no limit. */
  public int stallPendingCompactions() {
    return stallPendingCompactions;
  }

  /** Delta commits since the oldest pending plan beyond which the writer stalls, 0 for no limit. */
  public int stallCompactionLag() {
    return stallCompactionLag;
  }

  /** The longest time a write task holds its input in one checkpoint interval. */
  public long stallMaxWaitMillis() {
    return stallMaxWaitMillis;
  }

  /** A compaction task's merge pool: {@code buffer.page-size} pages, {@code compaction.memory}. */
  public PagePool newCompactionPagePool() {
    return PagePool.onHeap(
        (int) options.get(BufferOptions.PAGE_SIZE).getBytes(), compactionMemoryBytes);
  }

  private static void requirePositive(ConfigOption<Integer> option, int value) {
    if (value <= 0) {
      throw new IllegalArgumentException("option '" + option.key() + "' must be > 0, got " + value);
    }
  }

  private static void requireNotNegative(ConfigOption<Integer> option, int value) {
    if (value < 0) {
      throw new IllegalArgumentException(
          "option '" + option.key() + "' must be >= 0 (0 turns the limit off), got " + value);
    }
  }

  public TableSettings tableSettings() {
    return new TableSettings(
        tableName, rowType, recordKeyFields, partitionFields, orderingField, populateMetaFields);
  }

  /** The log writer's options: the {@code log.*} options, meta fields and record name. */
  public LogWriterOptions logWriterOptions() {
    return LogFormatOptions.builder(options)
        .metaFields(populateMetaFields)
        .avroRecordName(tableSettings().avroRecordName())
        .build();
  }
}
