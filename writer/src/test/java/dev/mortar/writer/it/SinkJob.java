package dev.mortar.writer.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mortar.buffer.Deduplication;
import dev.mortar.logformat.LogBlockFormat;
import dev.mortar.testing.HudiTableOracle;
import dev.mortar.writer.MortarSink;
import java.io.IOException;
import java.io.Serializable;
import java.net.URI;
import java.nio.file.Files;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Stream;
import javax.annotation.Nullable;
import org.apache.avro.generic.GenericRecord;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.types.Row;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hudi.common.table.HoodieTableMetaClient;
import org.apache.hudi.common.table.timeline.HoodieTimeline;

/**
 * One test job: a {@link Changelog} upserted into a table through the DataStream {@link MortarSink}
 * or the SQL connector, then checked against Hudi's reader. Built with {@link #at}; {@link
 * #toBuilder} derives a variant (another parallelism or buffer size for a restored job).
 */
record SinkJob(
    String path,
    int parallelism,
    boolean partitioned,
    boolean ordering,
    LogBlockFormat format,
    int buckets,
    int perCheckpoint,
    boolean smallBuffers,
    boolean offHeap,
    boolean managedMemory,
    boolean restarts,
    boolean metaFields,
    Deduplication deduplication,
    int compactionDeltaCommits,
    double compactionLogSizeRatio,
    int compactionMaxLogFiles,
    boolean compactionInJob,
    int cleanRetainCommits,
    int archiveMaxCommits,
    long checkpointMillis,
    boolean unalignedCheckpoints,
    boolean keyedInput,
    int flushThreads)
    implements Serializable {

  /** The changelog source's uid: fixed, so a savepoint restores into a job of another shape. */
  static final String SOURCE_UID = "changelog";

  /**
   * A job on {@code path}: parallelism 1, unpartitioned, last write wins, Avro blocks, 2 buckets,
   * 100 changes per checkpoint every 50 ms, default heap buffers, no restarts, meta fields, on_read
   * de-duplication, no compaction plans (when planned: every slice with logs in every plan, Hudi's
   * default strategy, so that a test's bounds follow the plan interval; executed in the job),
   * archival at its defaults.
   */
  static Builder at(String path) {
    return new Builder(path);
  }

  Builder toBuilder() {
    Builder builder = new Builder(path);
    builder.parallelism = parallelism;
    builder.partitioned = partitioned;
    builder.ordering = ordering;
    builder.format = format;
    builder.buckets = buckets;
    builder.perCheckpoint = perCheckpoint;
    builder.smallBuffers = smallBuffers;
    builder.offHeap = offHeap;
    builder.managedMemory = managedMemory;
    builder.restarts = restarts;
    builder.metaFields = metaFields;
    builder.deduplication = deduplication;
    builder.compactionDeltaCommits = compactionDeltaCommits;
    builder.compactionLogSizeRatio = compactionLogSizeRatio;
    builder.compactionMaxLogFiles = compactionMaxLogFiles;
    builder.compactionInJob = compactionInJob;
    builder.cleanRetainCommits = cleanRetainCommits;
    builder.archiveMaxCommits = archiveMaxCommits;
    builder.checkpointMillis = checkpointMillis;
    builder.unalignedCheckpoints = unalignedCheckpoints;
    builder.keyedInput = keyedInput;
    builder.flushThreads = flushThreads;
    return builder;
  }

  /** Sets what differs from the defaults of {@link #at}. */
  static final class Builder {
    private final String path;
    private int parallelism = 1;
    private boolean partitioned;
    private boolean ordering;
    private LogBlockFormat format = LogBlockFormat.AVRO;
    private int buckets = 2;
    private int perCheckpoint = 100;
    private boolean smallBuffers;
    private boolean offHeap;
    private boolean managedMemory;
    private boolean restarts;
    private boolean metaFields = true;
    private Deduplication deduplication = Deduplication.ON_READ;
    private int compactionDeltaCommits;
    private double compactionLogSizeRatio;
    private int compactionMaxLogFiles = 1;
    private boolean compactionInJob = true;
    private int cleanRetainCommits;
    private int archiveMaxCommits;
    private long checkpointMillis = 50;
    private boolean unalignedCheckpoints;
    private int flushThreads = 1;
    private boolean keyedInput;

    private Builder(String path) {
      this.path = path;
    }

    Builder parallelism(int parallelism) {
      this.parallelism = parallelism;
      return this;
    }

    /** Partitioned by {@code dt}. */
    Builder partitioned(boolean partitioned) {
      this.partitioned = partitioned;
      return this;
    }

    /** {@code ts} is the ordering field (event-time ordering). */
    Builder ordering(boolean ordering) {
      this.ordering = ordering;
      return this;
    }

    Builder format(LogBlockFormat format) {
      this.format = format;
      return this;
    }

    Builder buckets(int buckets) {
      this.buckets = buckets;
      return this;
    }

    /** The source emits at most this many changes past the last completed checkpoint. */
    Builder perCheckpoint(int perCheckpoint) {
      this.perCheckpoint = perCheckpoint;
      return this;
    }

    /** 4 kb pages, 64 kb of buffer memory and 16 kb batches: many flushes and spanning rows. */
    Builder smallBuffers(boolean smallBuffers) {
      this.smallBuffers = smallBuffers;
      return this;
    }

    /** Buffer pages outside the Java heap ('buffer.off-heap'). */
    Builder offHeap(boolean offHeap) {
      this.offHeap = offHeap;
      return this;
    }

    /** Buffer pages in the slot's managed memory ('buffer.managed-memory'). */
    Builder managedMemory(boolean managedMemory) {
      this.managedMemory = managedMemory;
      return this;
    }

    /** A fixed-delay restart strategy (5 attempts) instead of none. */
    Builder restarts(boolean restarts) {
      this.restarts = restarts;
      return this;
    }

    Builder metaFields(boolean metaFields) {
      this.metaFields = metaFields;
      return this;
    }

    Builder deduplication(Deduplication deduplication) {
      this.deduplication = deduplication;
      return this;
    }

    /** The committer schedules a compaction every {@code deltaCommits} delta commits. */
    Builder compactEvery(int deltaCommits) {
      this.compactionDeltaCommits = deltaCommits;
      return this;
    }

    /**
     * A plan takes a slice with a base file only once its logs reach {@code ratio} times the base
     * file's bytes or number {@code maxLogFiles} ('compaction.log-size-ratio', '-max-log-files').
     */
    Builder compactBySize(double ratio, int maxLogFiles) {
      this.compactionLogSizeRatio = ratio;
      this.compactionMaxLogFiles = maxLogFiles;
      return this;
    }

    /** The job archives beyond {@code maxCommits} completed commits, down to half. */
    Builder archiveBeyond(int maxCommits) {
      this.archiveMaxCommits = maxCommits;
      return this;
    }

    /** The checkpoint interval (default 50 ms), one delta commit per checkpoint. */
    Builder checkpointEvery(long millis) {
      this.checkpointMillis = millis;
      return this;
    }

    /**
     * Unaligned checkpoints ('execution.checkpointing.unaligned.enabled'): a barrier overtakes the
     * records buffered in front of an operator, which the checkpoint stores as in-flight data.
     */
    Builder unalignedCheckpoints(boolean unaligned) {
      this.unalignedCheckpoints = unaligned;
      return this;
    }

    /**
     * The DataStream job's rows reach the sink through a key-partitioned edge and an operator of
     * the sink's parallelism, as in a user's job: an edge that takes unaligned checkpoints (each
     * key's changes keep their order).
     */
    Builder keyedInput(boolean keyed) {
      this.keyedInput = keyed;
      return this;
    }

    /** Threads of each write task that write its log files ('write.flush-threads'). */
    Builder flushThreads(int threads) {
      this.flushThreads = threads;
      return this;
    }

    /** Whether the job executes its compaction plans ('compaction.async.enabled'). */
    Builder compactionInJob(boolean inJob) {
      this.compactionInJob = inJob;
      return this;
    }

    /** A clean after each compaction keeps {@code commits} commits (0: the option's default). */
    Builder cleanRetainCommits(int commits) {
      this.cleanRetainCommits = commits;
      return this;
    }

    SinkJob build() {
      return new SinkJob(
          path,
          parallelism,
          partitioned,
          ordering,
          format,
          buckets,
          perCheckpoint,
          smallBuffers,
          offHeap,
          managedMemory,
          restarts,
          metaFields,
          deduplication,
          compactionDeltaCommits,
          compactionLogSizeRatio,
          compactionMaxLogFiles,
          compactionInJob,
          cleanRetainCommits,
          archiveMaxCommits,
          checkpointMillis,
          unalignedCheckpoints,
          keyedInput,
          flushThreads);
    }
  }

  StreamExecutionEnvironment environment() {
    return environment(new Configuration());
  }

  /** The job's environment with {@code extra} settings (e.g. where checkpoints are kept). */
  StreamExecutionEnvironment environment(Configuration extra) {
    Configuration conf = clientConfiguration();
    conf.addAll(extra);
    return configured(StreamExecutionEnvironment.getExecutionEnvironment(conf));
  }

  /**
   * The restart strategy and checkpoint alignment of the job, which a client sets (a cluster's own
   * do not apply).
   */
  Configuration clientConfiguration() {
    Configuration conf = new Configuration();
    conf.set(CheckpointingOptions.ENABLE_UNALIGNED, unalignedCheckpoints);
    if (restarts) {
      conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
      conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 5);
      conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(50));
    } else {
      conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
    }
    return conf;
  }

  /** Sets the job's checkpoint interval and parallelism on {@code env}. */
  StreamExecutionEnvironment configured(StreamExecutionEnvironment env) {
    env.enableCheckpointing(checkpointMillis);
    env.setParallelism(parallelism);
    return env;
  }

  void runDataStream(Changelog changelog) throws Exception {
    StreamExecutionEnvironment env = environment();
    addDataStream(env, changelog);
    env.execute("mortar datastream test");
  }

  /** Adds the changelog source and the DataStream sink to {@code env}. */
  /** The changelog source and the sink, with the {@link Builder#keyedInput} edge if asked. */
  void addDataStream(StreamExecutionEnvironment env, Changelog changelog) {
    addDataStream(env, changelog, null);
  }

  /** {@link #addDataStream}, its source held by {@code gate} (null: none). */
  void addDataStream(
      StreamExecutionEnvironment env, Changelog changelog, @Nullable SourceGate gate) {
    DataStream<RowData> rows = changelogSource(env, changelog, gate);
    if (keyedInput) {
      rows =
          rows.keyBy(new IdKey())
              .map(row -> row)
              .returns(rows.getType())
              .uid("keyed-input")
              .setParallelism(parallelism);
    }
    addSink(rows);
  }

  /** The key of a changelog row: its id. */
  private static final class IdKey implements KeySelector<RowData, Long> {
    private static final long serialVersionUID = 1L;

    @Override
    public Long getKey(RowData row) {
      return row.getLong(0);
    }
  }

  /** Adds the changelog source, of parallelism 1, to {@code env}. */
  DataStream<RowData> changelogSource(StreamExecutionEnvironment env, Changelog changelog) {
    return changelogSource(env, changelog, null);
  }

  private DataStream<RowData> changelogSource(
      StreamExecutionEnvironment env, Changelog changelog, @Nullable SourceGate gate) {
    return env.addSource(
            new ChangelogSource<>(
                changelog,
                changelog.winners(ordering),
                perCheckpoint,
                Changelog.Op::toRowData,
                gate),
            "changelog",
            InternalTypeInfo.of(Changelog.ROW_TYPE))
        .uid(SOURCE_UID)
        .setParallelism(1);
  }

  /** Adds the DataStream sink after {@code rows}. */
  void addSink(DataStream<RowData> rows) {
    MortarSink.Builder sink =
        MortarSink.builder(Changelog.ROW_TYPE)
            .path(path)
            .recordKey("id")
            .orderingField(ordering ? "ts" : null)
            .buckets(buckets)
            .parallelism(parallelism)
            .logBlockFormat(format)
            .populateMetaFields(metaFields)
            .deduplication(deduplication)
            .offHeapBuffer(offHeap)
            .managedBufferMemory(managedMemory)
            .flushThreads(flushThreads);
    if (partitioned) {
      sink.partitionFields("dt");
    }
    sink.compactionScheduling(compactionDeltaCommits > 0);
    if (compactionDeltaCommits > 0) {
      sink.compactionDeltaCommits(compactionDeltaCommits).compactionInJob(compactionInJob);
      sink.compactionLogSizeRatio(compactionLogSizeRatio)
          .compactionMaxLogFiles(compactionMaxLogFiles);
    }
    if (cleanRetainCommits > 0) {
      sink.cleanRetainCommits(cleanRetainCommits);
    }
    if (archiveMaxCommits > 0) {
      sink.archiveCommits(archiveMaxCommits / 2, archiveMaxCommits);
    }
    if (smallBuffers) {
      sink.pageSize(MemorySize.parse("4kb"))
          .bufferSize(MemorySize.parse("64kb"))
          .batchSize(MemorySize.parse("16kb"));
    }
    sink.build().sinkTo(rows);
  }

  void runSql(Changelog changelog) throws Exception {
    StreamExecutionEnvironment env = environment();
    StreamTableEnvironment tables = StreamTableEnvironment.create(env);
    tables.getConfig().set("table.exec.sink.upsert-materialize", "NONE");
    DataStream<Row> rows =
        env.addSource(
                new ChangelogSource<>(
                    changelog, changelog.winners(ordering), perCheckpoint, Changelog.Op::toRow),
                "changelog",
                Types.ROW_NAMED(
                    new String[] {"id", "name", "ts", "dt", "amount"},
                    Types.LONG,
                    Types.STRING,
                    Types.LONG,
                    Types.STRING,
                    Types.DOUBLE))
            .uid(SOURCE_UID)
            .setParallelism(1);
    tables.createTemporaryView(
        "changes",
        tables.fromChangelogStream(
            rows,
            Schema.newBuilder()
                .column("id", "BIGINT NOT NULL")
                .column("name", "STRING")
                .column("ts", "BIGINT")
                .column("dt", "STRING")
                .column("amount", "DOUBLE")
                .build(),
            ChangelogMode.all()));
    tables.executeSql(ddl("items")).await();
    tables.executeSql("INSERT INTO items SELECT * FROM changes").await();
  }

  String ddl(String table) {
    StringBuilder with =
        new StringBuilder("'connector' = 'mortar', 'path' = '")
            .append(path)
            .append("', 'buckets' = '")
            .append(buckets)
            .append("', 'log.block.format' = '")
            .append(format.name().toLowerCase(Locale.ROOT))
            .append("', 'sink.parallelism' = '")
            .append(parallelism)
            .append("', 'buffer.deduplication' = '")
            .append(deduplication.name().toLowerCase(Locale.ROOT))
            .append("', 'write.flush-threads' = '")
            .append(flushThreads)
            .append("'");
    if (ordering) {
      with.append(", 'ordering.field' = 'ts'");
    }
    if (!metaFields) {
      with.append(", 'hoodie.populate.meta.fields' = 'false'");
    }
    if (offHeap) {
      with.append(", 'buffer.off-heap' = 'true'");
    }
    if (managedMemory) {
      with.append(", 'buffer.managed-memory' = 'true'");
    }
    if (compactionDeltaCommits == 0) {
      with.append(", 'compaction.schedule.enabled' = 'false'");
    } else {
      with.append(", 'compaction.schedule.enabled' = 'true', 'compaction.delta-commits' = '")
          .append(compactionDeltaCommits)
          .append("', 'compaction.async.enabled' = '")
          .append(compactionInJob)
          .append("'");
      with.append(", 'compaction.log-size-ratio' = '")
          .append(compactionLogSizeRatio)
          .append("', 'compaction.max-log-files' = '")
          .append(compactionMaxLogFiles)
          .append("'");
    }
    if (cleanRetainCommits > 0) {
      with.append(", 'clean.retain-commits' = '").append(cleanRetainCommits).append("'");
    }
    if (archiveMaxCommits > 0) {
      with.append(", 'archive.min-commits' = '")
          .append(archiveMaxCommits / 2)
          .append("', 'archive.max-commits' = '")
          .append(archiveMaxCommits)
          .append("'");
    }
    if (smallBuffers) {
      with.append(
          ", 'buffer.page-size' = '4kb', 'buffer.memory' = '64kb', 'write.batch-size' = '16kb'");
    }
    return "CREATE TABLE "
        + table
        + " (id BIGINT NOT NULL, name STRING, ts BIGINT, dt STRING, amount DOUBLE,"
        + " PRIMARY KEY (id) NOT ENFORCED)"
        + (partitioned ? " PARTITIONED BY (dt)" : "")
        + " WITH ("
        + with
        + ")";
  }

  /**
   * Hudi's reader shows exactly the expected latest row per key, and no instant is left pending.
   */
  void verify(Changelog changelog, org.apache.hadoop.conf.Configuration hadoopConf) {
    Map<String, GenericRecord> actual = HudiTableOracle.latestPerKey(path, hadoopConf);
    Map<String, Changelog.Op> expected = changelog.expected(ordering);
    assertThat(actual.keySet()).containsExactlyInAnyOrderElementsOf(expected.keySet());
    expected.forEach(
        (key, op) -> {
          GenericRecord row = actual.get(key);
          assertThat(row.get("id")).as("id of %s", key).isEqualTo(op.id());
          assertThat(row.get("name")).as("name of %s", key).isEqualTo(op.name());
          assertThat(row.get("ts")).as("ts of %s", key).isEqualTo(op.ts());
          assertThat(row.get("dt")).as("dt of %s", key).isEqualTo(op.dt());
          assertThat(row.get("amount")).as("amount of %s", key).isEqualTo(op.amount());
          if (metaFields) {
            assertThat(row.get("_hoodie_partition_path"))
                .as("partition of %s", key)
                .isEqualTo(partitioned ? op.dt() : "");
            assertThat(Objects.toString(row.get("_hoodie_record_key"))).isEqualTo(key);
          } else {
            assertThat(row.get("_hoodie_record_key")).as("meta key of %s", key).isNull();
            assertThat(row.get("_hoodie_commit_time")).as("commit time of %s", key).isNull();
          }
        });
  }

  void verify(Changelog changelog) throws IOException {
    verify(changelog, new org.apache.hadoop.conf.Configuration());
  }

  /**
   * No clean is pending and one completed, Hudi loads the archived timeline and finds instants in
   * it, and no archival is left half done: what a job that cleans and archives has done by its end.
   */
  void verifyCleansAndArchiveSettled() {
    HoodieTableMetaClient metaClient = HudiClient.metaClient(path);
    HoodieTimeline cleans = metaClient.getActiveTimeline().getCleanerTimeline();
    assertThat(cleans.filterInflightsAndRequested().getInstants()).as("pending cleans").isEmpty();
    assertThat(cleans.filterCompletedInstants().getInstants()).as("completed cleans").isNotEmpty();
    assertThat(metaClient.getArchivedTimeline().getInstants()).as("archived instants").isNotEmpty();
    assertThat(java.nio.file.Path.of(URI.create(path)).resolve(".hoodie/.temp/archive.pending"))
        .as("an archival left half done")
        .doesNotExist();
  }

  /**
   * No instant is left pending and every log file belongs to a completed instant: what a failed
   * attempt wrote was rolled back. The commit metadata of each delta commit still on the active
   * timeline names every log file of its instant, as Hudi's incremental readers find an instant's
   * files by it. For a table on local disk.
   */
  void verifyNothingUncommittedLeft() throws IOException {
    List<String> completed = HudiTableOracle.completedInstants(path);
    assertThat(HudiTableOracle.pendingInstants(path)).as("pending instants").isEmpty();
    Map<String, List<String>> writtenByInstant =
        HudiClient.writtenPaths(
            HudiClient.metaClient(path)
                .getActiveTimeline()
                .getDeltaCommitTimeline()
                .filterCompletedInstants());
    try (Stream<java.nio.file.Path> files = Files.walk(java.nio.file.Path.of(URI.create(path)))) {
      for (String logFile :
          files
              .map(file -> file.getFileName().toString())
              .filter(name -> name.contains(".log.") && !name.endsWith(".crc"))
              .toList()) {
        String instant = logFile.substring(logFile.indexOf('_') + 1, logFile.indexOf(".log."));
        assertThat(completed).as("instant of %s", logFile).contains(instant);
        if (writtenByInstant.containsKey(instant)) {
          assertThat(writtenByInstant.get(instant))
              .extracting(written -> written.substring(written.lastIndexOf('/') + 1))
              .as("log files in the commit metadata of %s", instant)
              .contains(logFile);
        }
      }
    }
  }

  /**
   * Each bucket of each partition has one file group: its id is derived from (table, partition,
   * bucket), whatever task wrote it, so a restore with another parallelism adds none.
   */
  void verifyOneFileGroupPerBucket() throws IOException {
    org.apache.hadoop.fs.Path base = new org.apache.hadoop.fs.Path(path);
    Map<String, Set<String>> fileIdsByBucket = new HashMap<>();
    try (FileSystem fs =
        FileSystem.newInstance(base.toUri(), new org.apache.hadoop.conf.Configuration())) {
      RemoteIterator<LocatedFileStatus> files = fs.listFiles(base, true);
      while (files.hasNext()) {
        org.apache.hadoop.fs.Path file = files.next().getPath();
        String name = file.getName();
        if (name.startsWith(".") && name.contains(".log.") && !name.endsWith(".crc")) {
          String fileId = name.substring(1, name.indexOf('_'));
          String bucket = file.getParent().toUri().getPath() + "#" + fileId.substring(0, 8);
          fileIdsByBucket.computeIfAbsent(bucket, b -> new HashSet<>()).add(fileId);
        }
      }
    }
    assertThat(fileIdsByBucket).isNotEmpty();
    fileIdsByBucket.forEach(
        (bucket, fileIds) -> assertThat(fileIds).as("file groups of bucket %s", bucket).hasSize(1));
  }
}
