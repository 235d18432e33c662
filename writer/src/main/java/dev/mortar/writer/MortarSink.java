package dev.mortar.writer;

import dev.mortar.buffer.Deduplication;
import dev.mortar.logformat.LogBlockFormat;
import dev.mortar.logformat.ParquetCodec;
import dev.mortar.serde.MortarRowBatch;
import dev.mortar.serde.MortarRowBatchTypeInfo;
import dev.mortar.writer.assign.BatchTaskPartitioner;
import dev.mortar.writer.assign.ShuffleBatcher;
import dev.mortar.writer.assign.ShuffleRowMaker;
import dev.mortar.writer.clean.Cleaning;
import dev.mortar.writer.commit.CommitOperator;
import dev.mortar.writer.compaction.AfterCompaction;
import dev.mortar.writer.compaction.CompactionStages;
import dev.mortar.writer.compaction.CompactionTask;
import dev.mortar.writer.input.AlignedEdges;
import dev.mortar.writer.input.MissingColumnsInput;
import dev.mortar.writer.input.UncopiedInput;
import dev.mortar.writer.input.WriteInput;
import dev.mortar.writer.options.NullKeyPolicy;
import dev.mortar.writer.settings.SinkSettings;
import dev.mortar.writer.write.BucketWriteOperatorFactory;
import dev.mortar.writer.write.WriteResult;
import dev.mortar.writer.write.WriteResultTypeInfo;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import javax.annotation.Nullable;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.core.memory.ManagedMemoryUseCase;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.DataStreamSink;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.types.logical.RowType;

/**
 * The Mortar sink for the DataStream API: upserts a changelog of {@link RowData} into a Hudi
 * Merge-On-Read table.
 *
 * <pre>{@code
 * MortarSink.builder(rowType)
 *     .path("hdfs://nn/warehouse/items")
 *     .recordKey("item_id")
 *     .orderingField("ts")
 *     .buckets(16)
 *     .build()
 *     .sinkTo(rows);
 * }</pre>
 *
 * The topology it adds (see rfc/0004-writer.md):
 *
 * <pre>
 *  input ─▶ key/bucket assigner ─(batches, by task)─▶ write ×P ─global─▶ commit ×1 ─▶ discard
 *           + batcher, chained                             │ instants
 *                                                   InstantCoordinator
 * </pre>
 *
 * The assigner gives each row its key, partition path and bucket, and the task of that bucket
 * (Hudi's own function); rows cross the shuffle in batches per task ({@code ShuffleBatcher}).
 *
 * <p>With one write task behind an input of parallelism 1, that task owns every bucket: it is
 * chained to the input and assigns key and bucket itself, so rows skip the network (its
 * serialization and the wake-up of an idle write thread for every network buffer). Either first
 * operator takes its input's rows without the copy Flink makes between chained operators when
 * object reuse is off ({@link UncopiedInput}).
 */
public final class MortarSink {
  private final SinkSettings settings;
  private final Function<String, Optional<String>> uids;

  private MortarSink(SinkSettings settings, Function<String, Optional<String>> uids) {
    this.settings = settings;
    this.uids = uids;
  }

  public static Builder builder(RowType rowType) {
    return new Builder(rowType);
  }

  /**
   * A sink with settings already resolved and checked (the SQL connector's path).
   *
   * @param uids the uid of an operator by its name, empty for none
   */
  public static MortarSink of(SinkSettings settings, Function<String, Optional<String>> uids) {
    return new MortarSink(settings, uids);
  }

  public SinkSettings settings() {
    return settings;
  }

  /** Adds the sink's operators after {@code input}. */
  public DataStreamSink<?> sinkTo(DataStream<RowData> rows) {
    DataStream<RowData> input =
        settings.inputFields() == null
            ? rows
            : MissingColumnsInput.of(
                rows,
                settings.rowType(),
                settings.inputFields(),
                "mortar-missing-columns: " + settings.tableName());
    int writeTasks =
        settings.parallelism() != null ? settings.parallelism() : input.getParallelism();
    SingleOutputStreamOperator<WriteResult> written =
        writeTasks == 1 && input.getParallelism() == 1
            ? write(UncopiedInput.of(input), new ShuffleRowMaker(settings))
            : write(shuffle(input, writeTasks), WriteInput.shuffleBatches(settings.rowType()));
    written.setParallelism(writeTasks);
    if (settings.managedBufferMemory()) {
      written
          .getTransformation()
          .declareManagedMemoryUseCaseAtOperatorScope(
              ManagedMemoryUseCase.OPERATOR, settings.managedBufferWeight());
    }
    uids.apply("mortar-write").ifPresent(written::uid);
    SingleOutputStreamOperator<CompactionTask> committed =
        AlignedEdges.global(written)
            .transform(
                "mortar-commit: " + settings.tableName(),
                CompactionStages.TASK_TYPE,
                new CommitOperator(settings))
            .setParallelism(1)
            .setMaxParallelism(1);
    uids.apply("mortar-commit").ifPresent(committed::uid);
    DataStream<?> last =
        settings.compactionExecution()
            ? CompactionStages.after(
                committed,
                settings,
                settings.compactionTasks() != null ? settings.compactionTasks() : writeTasks,
                uids,
                settings.cleaning()
                    ? new Cleaning(settings.cleanRetainCommits())
                    : AfterCompaction.NONE,
                true)
            : committed;
    DataStreamSink<?> end =
        discard(last).name("mortar-end: " + settings.tableName()).setParallelism(1);
    uids.apply("mortar-end").ifPresent(end::uid);
    return end;
  }

  private static <T> DataStreamSink<T> discard(DataStream<T> stream) {
    return stream.sinkTo(new DiscardingSink<>());
  }

  /** The batcher, chained to the input, and the bucket shuffle to {@code writeTasks} tasks. */
  private DataStream<MortarRowBatch> shuffle(DataStream<RowData> input, int writeTasks) {
    SingleOutputStreamOperator<MortarRowBatch> batched =
        UncopiedInput.of(input)
            .transform(
                "mortar-assign: " + settings.tableName(),
                new MortarRowBatchTypeInfo(),
                ShuffleBatcher.chained(settings, writeTasks))
            .setParallelism(input.getParallelism());
    uids.apply("mortar-assign").ifPresent(batched::uid);
    return AlignedEdges.aligned(batched, new BatchTaskPartitioner(writeTasks));
  }

  /** The write operator over {@code rows}, which {@code input} turns into shuffle rows. */
  private <IN> SingleOutputStreamOperator<WriteResult> write(
      DataStream<IN> rows, WriteInput<IN> input) {
    return rows.transform(
        "mortar-write: " + settings.tableName(),
        new WriteResultTypeInfo(),
        new BucketWriteOperatorFactory<>(settings, input));
  }

  /** Typed settings of the sink; every value is the {@link MortarOptions} option of that name. */
  public static final class Builder {
    private final RowType rowType;
    private final Configuration options = new Configuration();
    private List<String> recordKey = List.of();
    private List<String> partitionFields = List.of();
    private String uidPrefix = "";

    private Builder(RowType rowType) {
      this.rowType = rowType;
    }

    public Builder path(String path) {
      options.set(MortarOptions.PATH, path);
      return this;
    }

    public Builder tableName(String tableName) {
      options.set(MortarOptions.TABLE_NAME, tableName);
      return this;
    }

    public Builder recordKey(String... fields) {
      recordKey = List.of(fields);
      return this;
    }

    public Builder partitionFields(String... fields) {
      partitionFields = List.of(fields);
      return this;
    }

    public Builder orderingField(@Nullable String field) {
      if (field == null) {
        options.removeConfig(MortarOptions.ORDERING_FIELD);
      } else {
        options.set(MortarOptions.ORDERING_FIELD, field);
      }
      return this;
    }

    public Builder buckets(int buckets) {
      options.set(MortarOptions.BUCKETS, buckets);
      return this;
    }

    public Builder parallelism(int parallelism) {
      options.set(MortarOptions.SINK_PARALLELISM, parallelism);
      return this;
    }

    /** Whether records carry Hudi's meta fields ({@code hoodie.populate.meta.fields}). */
    public Builder populateMetaFields(boolean populate) {
      options.set(MortarOptions.POPULATE_META_FIELDS, populate);
      return this;
    }

    public Builder logBlockFormat(LogBlockFormat format) {
      options.set(MortarOptions.LOG_BLOCK_FORMAT, format);
      return this;
    }

    public Builder parquetCodec(ParquetCodec codec) {
      options.set(MortarOptions.LOG_PARQUET_CODEC, codec);
      return this;
    }

    public Builder parquetDictionary(boolean dictionary) {
      options.set(MortarOptions.LOG_PARQUET_DICTIONARY, dictionary);
      return this;
    }

    public Builder maxLogFileSize(MemorySize size) {
      options.set(MortarOptions.LOG_MAX_FILE_SIZE, size);
      return this;
    }

    public Builder maxLogBlockSize(MemorySize size) {
      options.set(MortarOptions.LOG_MAX_BLOCK_SIZE, size);
      return this;
    }

    public Builder directIo(boolean directIo) {
      options.set(MortarOptions.LOG_DIRECT_IO, directIo);
      return this;
    }

    public Builder bufferSize(MemorySize size) {
      options.set(MortarOptions.BUFFER_MEMORY, size);
      return this;
    }

    public Builder batchSize(MemorySize size) {
      options.set(MortarOptions.WRITE_BATCH_SIZE, size);
      return this;
    }

    public Builder flushThreads(int threads) {
      options.set(MortarOptions.WRITE_FLUSH_THREADS, threads);
      return this;
    }

    public Builder nullForMissingColumns(boolean nullForMissing) {
      options.set(MortarOptions.WRITE_NULL_FOR_MISSING_COLUMNS, nullForMissing);
      return this;
    }

    public Builder pageSize(MemorySize size) {
      options.set(MortarOptions.BUFFER_PAGE_SIZE, size);
      return this;
    }

    public Builder offHeapBuffer(boolean offHeap) {
      options.set(MortarOptions.BUFFER_OFF_HEAP, offHeap);
      return this;
    }

    public Builder managedBufferMemory(boolean managed) {
      options.set(MortarOptions.BUFFER_MANAGED_MEMORY, managed);
      return this;
    }

    public Builder deduplication(Deduplication deduplication) {
      options.set(MortarOptions.BUFFER_DEDUPLICATION, deduplication);
      return this;
    }

    public Builder nullKeyPolicy(NullKeyPolicy policy) {
      options.set(MortarOptions.NULL_KEY_POLICY, policy);
      return this;
    }

    public Builder compactionScheduling(boolean enabled) {
      options.set(MortarOptions.COMPACTION_SCHEDULE_ENABLED, enabled);
      return this;
    }

    public Builder compactionDeltaCommits(int deltaCommits) {
      options.set(MortarOptions.COMPACTION_DELTA_COMMITS, deltaCommits);
      return this;
    }

    public Builder compactionInterval(Duration interval) {
      options.set(MortarOptions.COMPACTION_INTERVAL, interval);
      return this;
    }

    public Builder compactionLogSizeRatio(double ratioToBase) {
      options.set(MortarOptions.COMPACTION_LOG_SIZE_RATIO, ratioToBase);
      return this;
    }

    public Builder compactionMaxLogFiles(int maxLogFiles) {
      options.set(MortarOptions.COMPACTION_MAX_LOG_FILES, maxLogFiles);
      return this;
    }

    public Builder compactionInJob(boolean enabled) {
      options.set(MortarOptions.COMPACTION_ASYNC_ENABLED, enabled);
      return this;
    }

    public Builder compactionTasks(int tasks) {
      options.set(MortarOptions.COMPACTION_TASKS, tasks);
      return this;
    }

    public Builder compactionMemory(MemorySize memory) {
      options.set(MortarOptions.COMPACTION_MEMORY, memory);
      return this;
    }

    /** Holds the input while more than {@code plans} compaction plans are pending; 0: never. */
    public Builder stallPendingCompactions(int plans) {
      options.set(MortarOptions.WRITE_STALL_PENDING_COMPACTIONS, plans);
      return this;
    }

    /** Holds the input while compaction lags more than {@code deltaCommits}; 0: never. */
    public Builder stallCompactionLag(int deltaCommits) {
      options.set(MortarOptions.WRITE_STALL_COMPACTION_LAG, deltaCommits);
      return this;
    }

    public Builder stallMaxWait(Duration maxWait) {
      options.set(MortarOptions.WRITE_STALL_MAX_WAIT, maxWait);
      return this;
    }

    public Builder cleaning(boolean enabled) {
      options.set(MortarOptions.CLEAN_ENABLED, enabled);
      return this;
    }

    public Builder cleanRetainCommits(int commits) {
      options.set(MortarOptions.CLEAN_RETAIN_COMMITS, commits);
      return this;
    }

    public Builder archival(boolean enabled) {
      options.set(MortarOptions.ARCHIVE_ENABLED, enabled);
      return this;
    }

    /** Archive beyond {@code maxCommits} completed commits, down to {@code minCommits}. */
    public Builder archiveCommits(int minCommits, int maxCommits) {
      options.set(MortarOptions.ARCHIVE_MIN_COMMITS, minCommits);
      options.set(MortarOptions.ARCHIVE_MAX_COMMITS, maxCommits);
      return this;
    }

    /** Merge {@code files} archive files of a layer into one of the next. */
    public Builder archiveMergeBatch(int files) {
      options.set(MortarOptions.ARCHIVE_MERGE_BATCH, files);
      return this;
    }

    public Builder writerLeaseTimeout(Duration timeout) {
      options.set(MortarOptions.WRITER_LEASE_TIMEOUT, timeout);
      return this;
    }

    /** Prefix of the operators' uids, for jobs with more than one Mortar sink. */
    public Builder uidPrefix(String prefix) {
      uidPrefix = prefix;
      return this;
    }

    /**
     * Validates the settings and checks an existing table against them.
     *
     * @throws IllegalArgumentException naming the offending option, or the mismatch with the
     *     existing table
     */
    public MortarSink build() {
      String path = options.getOptional(MortarOptions.PATH).orElse("");
      String defaultName =
          path.replaceAll("/+$", "").replaceAll(".*/", "").replaceAll("[^A-Za-z0-9_]", "_");
      SinkSettings settings =
          SinkSettings.of(options, rowType, recordKey, partitionFields, defaultName)
              .checkedAgainstExistingTable();
      String prefix = uidPrefix;
      return new MortarSink(settings, name -> Optional.of(prefix + name));
    }
  }
}
