package dev.mortar.writer.compaction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mortar.buffer.PagePool;
import dev.mortar.logformat.AvroSchemas;
import dev.mortar.logformat.LogBlockFormat;
import dev.mortar.logformat.LogFileStat;
import dev.mortar.logformat.LogFileWriter;
import dev.mortar.logformat.LogWriterOptions;
import dev.mortar.logformat.OrderingValue;
import dev.mortar.logformat.ParquetCodec;
import dev.mortar.logformat.read.FileSystemInputFile;
import dev.mortar.logformat.read.ParquetRowReader;
import dev.mortar.logformat.read.StoredRowType;
import dev.mortar.testing.Seeds;
import dev.mortar.writer.table.CompactionWriteStat;
import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Compacts random file slices (log files of upserts and deletes with random ordering values, and a
 * base file from an earlier compaction) and compares the new base file, read back, with a model:
 * per key the largest ordering value wins, the later record on equal values, and a key whose winner
 * is a delete is gone. A pool of a few pages forces the merge into many key shares; the result must
 * not depend on that.
 */
class FileGroupCompactorTest {
  private static final Logger LOG = LoggerFactory.getLogger(FileGroupCompactorTest.class);
  private static final RowType DATA =
      RowType.of(
          new org.apache.flink.table.types.logical.LogicalType[] {
            new BigIntType(false), new VarCharType(true, VarCharType.MAX_LENGTH), new BigIntType()
          },
          new String[] {"id", "name", "ts"});
  private static final String FILE_ID = "00000000-aaaa-3bbb-8ccc-000000000000";
  private static final String PARTITION = "dt=1";

  @TempDir Path dir;
  private org.apache.hadoop.fs.Path base;
  private FileSystem fs;

  @BeforeEach
  void openTableFolder() throws IOException {
    base = new org.apache.hadoop.fs.Path(dir.toUri());
    fs = FileSystem.getLocal(new Configuration()).getRaw();
  }

  @ParameterizedTest(name = "{0} blocks, pool of {1} pages, dictionary per column {2}")
  @CsvSource({"AVRO, 4, true", "AVRO, 4096, false", "PARQUET, 6, false", "PARQUET, 4096, true"})
  void theBaseFileHoldsTheLatestLiveRecordPerKey(
      LogBlockFormat format, int poolPages, boolean dictionaryPerColumn) throws Exception {
    long seed = Seeds.seed("FileGroupCompactorTest");
    LOG.info(
        "seed {} for {} blocks, {} pages, dictionary per column {}",
        seed,
        format,
        poolPages,
        dictionaryPerColumn);
    SplittableRandom random = new SplittableRandom(seed);
    Map<Long, Model> model = new HashMap<>();

    CompactionTask first = writeSlice(fs, base, format, random, model, 1, 4, null, 0);
    CompactionWriteStat firstStat =
        compact(fs, base, first, poolPages, dictionaryPerColumn, "0-1-0");
    assertThat(readBaseFile(fs, base, firstStat.baseFileName()))
        .as("seed %s", seed)
        .isEqualTo(expected(model));

    model.values().removeIf(change -> change.name == null); // a compacted delete leaves nothing
    CompactionTask second =
        writeSlice(fs, base, format, random, model, 5, 3, firstStat.baseFileName(), 0);
    CompactionWriteStat secondStat =
        compact(fs, base, second, poolPages, dictionaryPerColumn, "0-1-0");
    assertThat(readBaseFile(fs, base, secondStat.baseFileName()))
        .as("seed %s", seed)
        .isEqualTo(expected(model));
    assertThat(secondStat.previousBase().fileName()).isEqualTo(firstStat.baseFileName());
    assertThat(secondStat.logFiles()).isEqualTo(3);
    long logBytes = 0;
    for (String log : second.logFileNames()) {
      logBytes +=
          fs.getFileStatus(
                  new org.apache.hadoop.fs.Path(
                      new org.apache.hadoop.fs.Path(base, PARTITION), log))
              .getLen();
    }
    assertThat(secondStat.logBytes()).as("bytes of the logs compacted").isEqualTo(logBytes);
  }

  /**
   * Records that grow from log to log make the first pass's count of records a poor measure of the
   * memory the rest need: the parts it plans do not fit, and each splits its own spill file.
   */
  @ParameterizedTest(name = "{0} blocks")
  @CsvSource({"AVRO", "PARQUET"})
  void recordsGrowingFromLogToLogStillMergeExactly(LogBlockFormat format) throws Exception {
    long seed = Seeds.seed("FileGroupCompactorTest");
    LOG.info("seed {} for growing records in {} blocks", seed, format);
    SplittableRandom random = new SplittableRandom(seed);
    Map<Long, Model> model = new HashMap<>();
    CompactionTask first = writeSlice(fs, base, format, random, model, 1, 4, null, 1_500);
    CompactionWriteStat firstStat = compact(fs, base, first, 6, true, "0-1-0");
    assertThat(readBaseFile(fs, base, firstStat.baseFileName()))
        .as("seed %s", seed)
        .isEqualTo(expected(model));

    model.values().removeIf(change -> change.name == null);
    CompactionTask second =
        writeSlice(fs, base, format, random, model, 5, 4, firstStat.baseFileName(), 1_500);
    CompactionWriteStat secondStat = compact(fs, base, second, 6, true, "0-1-0");
    assertThat(readBaseFile(fs, base, secondStat.baseFileName()))
        .as("seed %s, with the base file split into spill files too", seed)
        .isEqualTo(expected(model));
  }

  /** Stopped in its first pass (a large pool), or while it splits the slice into spill files. */
  @ParameterizedTest(name = "pool of {0} pages, stopped at the {1}th record")
  @CsvSource({"4096, 20", "6, 20", "6, 400"})
  void aCompactionToldToStopDeletesItsFileAndRunsAgainExactly(int poolPages, int stopAt)
      throws Exception {
    long seed = Seeds.seed("FileGroupCompactorTest");
    LOG.info("seed {} for a compaction stopped at {} with {} pages", seed, stopAt, poolPages);
    SplittableRandom random = new SplittableRandom(seed);
    Map<Long, Model> model = new HashMap<>();
    CompactionTask first = writeSlice(fs, base, LogBlockFormat.AVRO, random, model, 1, 3, null, 0);
    CompactionWriteStat firstStat = compact(fs, base, first, 4096, true, "0-1-0");
    model.values().removeIf(change -> change.name == null);
    CompactionTask second =
        writeSlice(fs, base, LogBlockFormat.AVRO, random, model, 4, 3, firstStat.baseFileName(), 0);
    AtomicInteger asked = new AtomicInteger();

    assertThatThrownBy(
            () ->
                compact(
                    fs,
                    base,
                    second,
                    poolPages,
                    true,
                    "0-1-0",
                    () -> asked.incrementAndGet() > stopAt))
        .as("seed %s", seed)
        .isInstanceOf(CancellationException.class);

    org.apache.hadoop.fs.Path partition = new org.apache.hadoop.fs.Path(base, PARTITION);
    assertThat(fs.listStatus(partition))
        .as("base files of %s after the stop", second.instant())
        .noneMatch(status -> status.getPath().getName().endsWith(second.instant() + ".parquet"));
    CompactionWriteStat again = compact(fs, base, second, poolPages, true, "0-1-1");
    assertThat(readBaseFile(fs, base, again.baseFileName()))
        .as("seed %s", seed)
        .isEqualTo(expected(model));
  }

  @Test
  void runningATaskAgainReplacesWhatAnEarlierAttemptWrote() throws Exception {
    long seed = Seeds.seed("FileGroupCompactorTest");
    SplittableRandom random = new SplittableRandom(seed);
    Map<Long, Model> model = new HashMap<>();
    CompactionTask task = writeSlice(fs, base, LogBlockFormat.AVRO, random, model, 1, 3, null, 0);

    CompactionWriteStat earlier = compact(fs, base, task, 4096, true, "0-1-0");
    CompactionWriteStat again = compact(fs, base, task, 4096, true, "1-1-1");

    org.apache.hadoop.fs.Path partition = new org.apache.hadoop.fs.Path(base, PARTITION);
    assertThat(fs.exists(new org.apache.hadoop.fs.Path(partition, earlier.baseFileName())))
        .as("the earlier attempt's base file")
        .isFalse();
    assertThat(readBaseFile(fs, base, again.baseFileName())).isEqualTo(expected(model));
    assertThat(
            fs.exists(
                new org.apache.hadoop.fs.Path(
                    base,
                    ".hoodie/.temp/"
                        + task.instant()
                        + "/"
                        + PARTITION
                        + "/"
                        + again.baseFileName()
                        + ".marker.MERGE")))
        .as("marker of the base file")
        .isTrue();
  }

  /**
   * Writes {@code logs} log files of random changes to keys [0, 60) and records them in the model;
   * each log's names are {@code nameGrowthPerLog} characters longer than the previous log's.
   */
  private static CompactionTask writeSlice(
      FileSystem fs,
      org.apache.hadoop.fs.Path base,
      LogBlockFormat format,
      SplittableRandom random,
      Map<Long, Model> model,
      int firstCommit,
      int logs,
      String baseFile,
      int nameGrowthPerLog)
      throws Exception {
    LogWriterOptions options =
        LogWriterOptions.builder()
            .blockFormat(format)
            .maxBlockSizeBytes(2 << 10)
            .avroRecordName("hoodie.t.t_record")
            .build();
    RowDataSerializer serializer = new RowDataSerializer(DATA);
    List<String> names = new ArrayList<>();
    for (int commit = firstCommit; commit < firstCommit + logs; commit++) {
      String instant = instant(commit);
      try (LogFileWriter writer =
          new LogFileWriter(fs, base, PARTITION, FILE_ID, instant, "0-1-0", DATA, options)) {
        Map<Long, Boolean> written = new HashMap<>();
        for (int i = 0; i < 80; i++) {
          long id = random.nextInt(60);
          if (written.put(id, true) != null) {
            continue; // one record per key and flush, as a write task's de-duplicated buffer
          }
          long ts = random.nextInt(20);
          BinaryStringData key = BinaryStringData.fromString(Long.toString(id));
          if (random.nextInt(5) == 0) {
            writer.delete(key, OrderingValue.ofLong(ts));
            update(model, id, new Model(ts, null));
          } else {
            int length = random.nextInt(300) + (commit - firstCommit) * nameGrowthPerLog;
            String name = "n" + commit + "-" + i + "-" + "x".repeat(length);
            BinaryRowData row =
                serializer
                    .toBinaryRow(GenericRowData.of(id, StringData.fromString(name), ts))
                    .copy();
            writer.write(key, row);
            update(model, id, new Model(ts, name));
          }
        }
        for (LogFileStat stat : writer.finish()) {
          names.add(stat.fileName());
        }
      }
    }
    return new CompactionTask(
        instant(firstCommit + logs),
        1,
        new FileGroupId(PARTITION, FILE_ID),
        baseFile == null ? instant(firstCommit) : instant(firstCommit - 1),
        baseFile,
        names,
        false);
  }

  private static String instant(int commit) {
    return String.format("2026112600000%04d", commit);
  }

  private static void update(Map<Long, Model> model, long id, Model change) {
    Model current = model.get(id);
    if (current == null || change.ts >= current.ts) {
      model.put(id, change);
    }
  }

  /** Compacts {@code task}; the merge's spill files must all be gone afterwards. */
  private CompactionWriteStat compact(
      FileSystem fs,
      org.apache.hadoop.fs.Path base,
      CompactionTask task,
      int poolPages,
      boolean dictionaryPerColumn,
      String token)
      throws Exception {
    return compact(fs, base, task, poolPages, dictionaryPerColumn, token, () -> false);
  }

  /** Compacts {@code task}, asking {@code stop} between rows; no spill file may be left. */
  private CompactionWriteStat compact(
      FileSystem fs,
      org.apache.hadoop.fs.Path base,
      CompactionTask task,
      int poolPages,
      boolean dictionaryPerColumn,
      String token,
      BooleanSupplier stop)
      throws Exception {
    int pageSize = 4096;
    File spillDir = dir.resolve("spill").toFile();
    try (PagePool pool = PagePool.strictOnHeap(pageSize, (long) poolPages * pageSize);
        FileGroupCompactor compactor =
            new FileGroupCompactor(
                fs,
                base,
                new org.apache.hadoop.fs.Path(base, ".hoodie/.temp"),
                DATA,
                AvroSchemas.of(DATA, "hoodie.t.t_record", true),
                "ts",
                ParquetCodec.SNAPPY,
                1 << 20,
                dictionaryPerColumn,
                token,
                pool,
                spillDir)) {
      return compactor.compact(task, stop);
    } finally {
      assertThat(spillDir.list()).as("spill files left in %s", spillDir).isNullOrEmpty();
    }
  }

  private static Map<String, String> readBaseFile(
      FileSystem fs, org.apache.hadoop.fs.Path base, String name) throws Exception {
    Map<String, String> rows = new HashMap<>();
    new ParquetRowReader(StoredRowType.of(DATA))
        .read(
            new FileSystemInputFile(
                fs,
                new org.apache.hadoop.fs.Path(
                    new org.apache.hadoop.fs.Path(base, PARTITION), name)),
            row -> {
              int at = StoredRowType.META_FIELD_COUNT;
              assertThat(row.getString(StoredRowType.FILE_NAME).toString()).isEqualTo(name);
              assertThat(row.getString(StoredRowType.RECORD_KEY).toString())
                  .isEqualTo(Long.toString(row.getLong(at)));
              String previous =
                  rows.put(
                      Long.toString(row.getLong(at)),
                      row.getLong(at + 2) + "/" + row.getString(at + 1));
              assertThat(previous).as("one row per key").isNull();
            });
    return rows;
  }

  private static Map<String, String> expected(Map<Long, Model> model) {
    Map<String, String> rows = new HashMap<>();
    model.forEach(
        (id, change) -> {
          if (change.name != null) {
            rows.put(Long.toString(id), change.ts + "/" + change.name);
          }
        });
    return rows;
  }

  private record Model(long ts, String name) {}
}
