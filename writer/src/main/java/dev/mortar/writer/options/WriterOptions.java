package dev.mortar.writer.options;

import java.time.Duration;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.MemorySize;

/**
 * The options the writer module owns: the table, its keys and buckets, and the write tasks. The
 * buffer's and the log format's options are declared in their modules ({@code BufferOptions},
 * {@code LogFormatOptions}); {@code MortarOptions} lists them all. This package imports nothing of
 * the writer, so every package can name an option key in its messages.
 */
public final class WriterOptions {
  private WriterOptions() {}

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

  public static final ConfigOption<Integer> SINK_PARALLELISM =
      ConfigOptions.key("sink.parallelism")
          .intType()
          .noDefaultValue()
          .withDescription(
              "Parallelism of the write tasks. Defaults to the parallelism of the input. One"
                  + " write task behind an input of parallelism 1 takes the rows without a shuffle"
                  + " (chained to the input).");

  public static final ConfigOption<MemorySize> WRITE_BATCH_SIZE =
      ConfigOptions.key("write.batch-size")
          .memoryType()
          .defaultValue(MemorySize.ofMebiBytes(64))
          .withDescription(
              "A bucket is flushed to a new log file when it holds more than this; every"
                  + " checkpoint flushes all buckets.");

  public static final ConfigOption<Integer> WRITE_FLUSH_THREADS =
      ConfigOptions.key("write.flush-threads")
          .intType()
          .defaultValue(1)
          .withDescription(
              "Threads of one write task that write its log files. A file group's files are"
                  + " always written one after another, on one thread; more threads write"
                  + " different file groups side by side, which shortens a checkpoint that"
                  + " touches many file groups on object storage (S3: each file is several"
                  + " round trips). Each thread encodes one block at a time in memory"
                  + " ('log.max-block-size').");

  public static final ConfigOption<Boolean> WRITE_NULL_FOR_MISSING_COLUMNS =
      ConfigOptions.key("write.null-for-missing-columns")
          .booleanType()
          .defaultValue(false)
          .withDescription(
              "Whether a sink that lacks some of an existing table's columns (dropped upstream)"
                  + " writes them as null, as Hudi's 'hoodie.write.set.null.for.missing.columns'"
                  + " does: the table keeps its schema and the sink's columns are matched to it by"
                  + " name. The missing columns must be nullable and neither record key, partition"
                  + " nor ordering columns. Off, such a sink fails when the job is built.");

  public static final ConfigOption<NullKeyPolicy> NULL_KEY_POLICY =
      ConfigOptions.key("null-key.policy")
          .enumType(NullKeyPolicy.class)
          .defaultValue(NullKeyPolicy.FAIL)
          .withDescription(
              "What to do with a row whose record key is null or empty: 'fail' the job naming the"
                  + " field and row, or 'drop' it and count it in the numNullKeyRowsDropped metric.");

  public static final ConfigOption<Boolean> COMPACTION_SCHEDULE_ENABLED =
      ConfigOptions.key("compaction.schedule.enabled")
          .booleanType()
          .defaultValue(true)
          .withDescription(
              "Let the committer schedule compactions: every 'compaction.delta-commits' delta"
                  + " commits it writes a compaction plan (C.compaction.requested) for the file"
                  + " slices with log files, which the job executes ('compaction.async.enabled')"
                  + " or the offline compactor does. Needs 'hoodie.populate.meta.fields'.");

  public static final ConfigOption<Integer> COMPACTION_DELTA_COMMITS =
      ConfigOptions.key("compaction.delta-commits")
          .intType()
          .defaultValue(5)
          .withDescription(
              "Number of completed delta commits after the latest compaction at which the"
                  + " committer schedules the next one (as Hudi's 'compaction.delta_commits').");

  public static final ConfigOption<Duration> COMPACTION_INTERVAL =
      ConfigOptions.key("compaction.interval")
          .durationType()
          .noDefaultValue()
          .withDescription(
              "Also schedule a compaction once this much time passed since the latest one"
                  + " (and at least one delta commit completed since), however few delta commits"
                  + " that was (as Hudi's 'compaction.delta_seconds' with a time or 'num_or_time'"
                  + " trigger); unset: by 'compaction.delta-commits' only.");

  public static final ConfigOption<Double> COMPACTION_LOG_SIZE_RATIO =
      ConfigOptions.key("compaction.log-size-ratio")
          .doubleType()
          .defaultValue(0.5)
          .withDescription(
              "A file slice with a base file joins a compaction plan only once its log files'"
                  + " bytes reach this fraction of the base file's bytes (or it holds"
                  + " 'compaction.max-log-files' log files). A compaction rewrites the whole base"
                  + " file: a ratio r rewrites a row about (1 + r) / r times over its file group's"
                  + " life instead of once per plan, so compaction's cost stays proportional to the"
                  + " rows written however large the table grows, and readers merge logs of at"
                  + " most r times the base file. 0: every slice with log files in every plan, as"
                  + " Hudi's default strategy.");

  public static final ConfigOption<Integer> COMPACTION_MAX_LOG_FILES =
      ConfigOptions.key("compaction.max-log-files")
          .intType()
          .defaultValue(100)
          .withDescription(
              "With 'compaction.log-size-ratio' above 0: a file slice with this many log files"
                  + " joins the next compaction plan however small they are, which bounds the"
                  + " files a reader opens per slice.");

  public static final ConfigOption<Boolean> COMPACTION_ASYNC_ENABLED =
      ConfigOptions.key("compaction.async.enabled")
          .booleanType()
          .defaultValue(true)
          .withDescription(
              "Execute the scheduled compaction plans in the job, on 'compaction.tasks' tasks"
                  + " beside the write path: each writes a file slice's Parquet base file, and"
                  + " the compaction commits once all are written. Turn it off to run plans"
                  + " with the offline compactor instead.");

  public static final ConfigOption<Integer> COMPACTION_TASKS =
      ConfigOptions.key("compaction.tasks")
          .intType()
          .noDefaultValue()
          .withDescription(
              "Parallelism of the in-job compaction stage; the write parallelism when unset.");

  public static final ConfigOption<MemorySize> COMPACTION_MEMORY =
      ConfigOptions.key("compaction.memory")
          .memoryType()
          .defaultValue(MemorySize.ofMebiBytes(128))
          .withDescription(
              "Memory of one compaction task's merge: the latest log record per key of the"
                  + " slice being compacted. A slice whose logs need more is merged in several"
                  + " passes over shares of its keys, each share's records spilled once to the"
                  + " TaskManager's io.tmp.dirs; the Parquet writer's row group comes on top.");

  public static final ConfigOption<Boolean> CLEAN_ENABLED =
      ConfigOptions.key("clean.enabled")
          .booleanType()
          .defaultValue(true)
          .withDescription(
              "Clean the table after each compaction the job commits, on a thread of the"
                  + " compaction committer: delete the file slices that no reader of the last"
                  + " 'clean.retain-commits' commits needs, with a Hudi clean instant (T.clean)."
                  + " A clean left unfinished by a failure is finished first.");

  public static final ConfigOption<Integer> CLEAN_RETAIN_COMMITS =
      ConfigOptions.key("clean.retain-commits")
          .intType()
          .defaultValue(30)
          .withDescription(
              "Number of the latest completed commits (delta commits and compactions) whose"
                  + " readers a clean keeps every file for (as Hudi's 'clean.retain_commits',"
                  + " policy KEEP_LATEST_COMMITS).");

  public static final ConfigOption<Boolean> ARCHIVE_ENABLED =
      ConfigOptions.key("archive.enabled")
          .booleanType()
          .defaultValue(true)
          .withDescription(
              "Keep the active timeline bounded: after commits, a thread of the committer moves"
                  + " the oldest completed instants into Hudi's archived timeline"
                  + " (.hoodie/timeline/history/) once there are more than 'archive.max-commits'"
                  + " completed commits, never past a pending instant, the newest compaction or"
                  + " the earliest commit the newest clean retains.");

  public static final ConfigOption<Integer> ARCHIVE_MIN_COMMITS =
      ConfigOptions.key("archive.min-commits")
          .intType()
          .defaultValue(40)
          .withDescription(
              "Completed commits (delta commits and compactions) an archival leaves in the"
                  + " active timeline (as Hudi's 'hoodie.keep.min.commits').");

  public static final ConfigOption<Integer> ARCHIVE_MAX_COMMITS =
      ConfigOptions.key("archive.max-commits")
          .intType()
          .defaultValue(50)
          .withDescription(
              "Completed commits in the active timeline beyond which an archival runs (as"
                  + " Hudi's 'hoodie.keep.max.commits'); more than 'archive.min-commits'.");

  public static final ConfigOption<Integer> ARCHIVE_MERGE_BATCH =
      ConfigOptions.key("archive.merge-batch")
          .intType()
          .defaultValue(10)
          .withDescription(
              "Files of one layer of the archived timeline merged into one file of the next layer"
                  + " after an archival (as Hudi's 'hoodie.timeline.compaction.batch.size'); at"
                  + " least 2.");

  public static final ConfigOption<Integer> WRITE_STALL_PENDING_COMPACTIONS =
      ConfigOptions.key("write.stall.pending-compactions")
          .intType()
          .defaultValue(3)
          .withDescription(
              "The write tasks hold their input (back-pressure) while more than this many"
                  + " compaction plans are pending, until compaction catches up or for at most"
                  + " 'write.stall.max-wait' per checkpoint interval. 0 turns this limit off."
                  + " Only with 'compaction.schedule.enabled'.");

  public static final ConfigOption<Integer> WRITE_STALL_COMPACTION_LAG =
      ConfigOptions.key("write.stall.compaction-lag")
          .intType()
          .defaultValue(30)
          .withDescription(
              "The write tasks hold their input while more than this many delta commits completed"
                  + " since the oldest pending compaction plan (each adds at most one log file to"
                  + " a file slice, so this bounds the log files per slice). 0 turns this limit"
                  + " off; with both limits 0 the writer never stalls.");

  public static final ConfigOption<Duration> WRITE_STALL_MAX_WAIT =
      ConfigOptions.key("write.stall.max-wait")
          .durationType()
          .defaultValue(Duration.ofMinutes(1))
          .withDescription(
              "Longest time a write task holds its input in one checkpoint interval; checkpoint"
                  + " barriers wait behind the held input, so keep it well below the checkpoint"
                  + " timeout.");

  public static final ConfigOption<Duration> WRITER_LEASE_TIMEOUT =
      ConfigOptions.key("writer.lease.timeout")
          .durationType()
          .defaultValue(Duration.ofMinutes(1))
          .withDescription(
              "One job at a time writes a table: at start the job takes the table's writer lease"
                  + " (.hoodie/.aux/mortar-writer-lease/), renews it every quarter of this time and"
                  + " gives it up when it finishes or is cancelled; a second job fails at start,"
                  + " naming the holder. A lease whose holder died expires this long after its"
                  + " last heartbeat (a job restored from the holder's checkpoint or savepoint"
                  + " takes it over once the holder releases it, within 3 s; 'bin/lease --path"
                  + " <path> --release' frees it now). A"
                  + " holder that cannot renew for this long fails before its next commit.");
}
