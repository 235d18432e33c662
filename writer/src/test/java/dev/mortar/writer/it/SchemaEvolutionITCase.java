package dev.mortar.writer.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mortar.logformat.LogBlockFormat;
import dev.mortar.testing.HudiTableOracle;
import dev.mortar.testing.Seeds;
import dev.mortar.writer.MortarSink;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Stream;
import org.apache.avro.generic.GenericRecord;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.FloatType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.RowKind;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A table's schema evolves the ways Mortar follows: a first job writes and compacts it with {@link
 * #NARROWER} ({@code ts} an INT, {@code amount} a FLOAT, {@code price} a DECIMAL(10, 2)), a second
 * job on the same path writes the same keys with {@link #WIDER}'s BIGINT, DOUBLE and DECIMAL(20,
 * 2), {@code code} a STRING where it was an INT, and a nullable column {@code note} added at the
 * end, and compacts slices whose base files and logs are of the old schema. Hudi's reader reads the
 * table exact: the first job's values widened, the second job's rows with their note, the others
 * with a null one; and again after Hudi's own compaction of the evolved table.
 */
class SchemaEvolutionITCase {
  private static final Logger LOG = LoggerFactory.getLogger(SchemaEvolutionITCase.class);

  /** {@link Changelog#ROW_TYPE} with {@code ts} an INT, {@code amount} a FLOAT, a price, a code. */
  private static final RowType NARROWER =
      changelogRow(
          Map.of("ts", new IntType(), "amount", new FloatType()),
          new RowType.RowField("price", new DecimalType(10, 2)),
          new RowType.RowField("code", new IntType()));

  /**
   * {@link Changelog#ROW_TYPE}, a price of more digits, the code a STRING, and a nullable {@code
   * note} after them.
   */
  private static final RowType WIDER =
      changelogRow(
          Map.of(),
          new RowType.RowField("price", new DecimalType(20, 2)),
          new RowType.RowField("code", new VarCharType(VarCharType.MAX_LENGTH)),
          new RowType.RowField("note", new VarCharType(VarCharType.MAX_LENGTH)));

  /** {@link #WIDER} without {@code name}: a column dropped upstream. */
  private static final RowType WITHOUT_NAME = withoutColumn(WIDER, "name");

  @RegisterExtension static final MiniClusterExtension MINI_CLUSTER = MiniClusters.withSlots(2);

  @TempDir Path dir;

  /** Who first compacts the slices that hold files of the old schema. */
  enum Compactor {
    /** The second job, every two commits. */
    MORTAR,
    /**
     * Hudi's own compaction, after the second job (which compacts nothing), so Hudi's reader first
     * reads slices of old and new files.
     */
    HUDI
  }

  static Stream<Arguments> formatsAndCompactors() {
    return Stream.of(LogBlockFormat.values())
        .flatMap(format -> Stream.of(Compactor.values()).map(by -> Arguments.of(format, by)));
  }

  @ParameterizedTest
  @MethodSource("formatsAndCompactors")
  void widenedColumnsAndANullableColumnAddedAtTheEndAreWrittenCompactedAndRead(
      LogBlockFormat format, Compactor compactor) throws Exception {
    long seed = Seeds.seed("SchemaEvolutionITCase[" + format + ", " + compactor + "]");
    LOG.info("seed {} for {} blocks, compacted by {}", seed, format, compactor);
    Changelog before = Changelog.random(seed, 300, 80, 30, 0);
    // fewer changes than keys, so many keys keep the first job's values, widened on read
    Changelog after = Changelog.random(seed + 1, 120, 80, 30, 0);
    String path = dir.resolve("t").toUri().toString();

    job(path, format, NARROWER, before, 40, 2, SchemaEvolutionITCase::narrowed)
        .execute("schema evolution, before");
    long compactionsBefore = compactions();
    int deltaCommits = compactor == Compactor.MORTAR ? 2 : 1_000;
    job(path, format, WIDER, after, 15, deltaCommits, SchemaEvolutionITCase::withNote)
        .execute("schema evolution, after");
    long compactionsOfSecondJob = compactions() - compactionsBefore;
    if (compactor == Compactor.MORTAR) {
      assertThat(compactionsOfSecondJob)
          .as("compactions of the second job, over files of the old schema; seed %s", seed)
          .isPositive();
    } else {
      assertThat(compactionsOfSecondJob).as("compactions of the second job").isZero();
    }

    Map<String, Changelog.Op> expected = new HashMap<>();
    before.expected(false).forEach((key, op) -> expected.put(key, widened(op)));
    Map<String, String> notes = new HashMap<>();
    for (Changelog.Op op : after.winners(false)) {
      String key = Long.toString(op.id());
      if (op.kind() == RowKind.DELETE) {
        expected.remove(key);
      } else {
        expected.put(key, op);
        notes.put(key, note(op));
      }
    }
    assertReadExact(path, expected, notes, seed);

    assertThat(HudiClient.scheduleAndCompact(path).isPresent())
        .as("Hudi's compaction of the evolved table; seed %s", seed)
        .isTrue();
    assertReadExact(path, expected, notes, seed);
  }

  /**
   * A user's way to change a running job's schema: stop it with a savepoint, widen its columns and
   * add one, start it again from the savepoint. Which changes the first job wrote is in the
   * savepoint's source offset, so each key reads as its winning change either as the first job
   * wrote it (narrowed, read widened, no note) or as the second job did (with its note); both jobs
   * must have written some winners, and Hudi's compaction of the table changes nothing.
   */
  @ParameterizedTest
  @EnumSource(LogBlockFormat.class)
  void aJobRestoredFromASavepointWithWidenedAndAddedColumnsEndsExact(LogBlockFormat format)
      throws Exception {
    long seed = Seeds.seed("SchemaEvolutionITCase[savepoint, " + format + "]");
    LOG.info("seed {} for {} blocks, restored from a savepoint", seed, format);
    String path = dir.resolve("t").toUri().toString();
    Changelog changelog =
        restartFromASavepoint(
            seed,
            format,
            NARROWER,
            SchemaEvolutionITCase::narrowed,
            WIDER,
            SchemaEvolutionITCase::withNote);

    Map<String, Changelog.Op> winners = new HashMap<>();
    for (Changelog.Op op : changelog.winners(false)) {
      if (op.kind() != RowKind.DELETE) {
        winners.put(Long.toString(op.id()), op);
      }
    }
    Map<String, String> notes = assertReadAsEitherJobWroteIt(path, winners, seed);
    assertThat(notes.values())
        .as("winners written by the first job (null) and the second; seed %s", seed)
        .containsNull()
        .anyMatch(Objects::nonNull);

    assertThat(HudiClient.scheduleAndCompact(path).isPresent()).isTrue();
    Map<String, Changelog.Op> expected = new HashMap<>();
    winners.forEach((key, op) -> expected.put(key, notes.get(key) == null ? widened(op) : op));
    assertReadExact(path, expected, notes, seed);
  }

  /**
   * A column dropped upstream, the user's way: stop the job with a savepoint, drop {@code name}
   * from its columns, start it again from the savepoint with {@code
   * write.null-for-missing-columns}. Each key reads its winner with its name if the first job wrote
   * it, with a null one if the second did; both jobs own some winners, and Hudi's compaction
   * changes nothing.
   */
  @ParameterizedTest
  @EnumSource(LogBlockFormat.class)
  void aJobRestoredFromASavepointWithoutAColumnWritesItAsNull(LogBlockFormat format)
      throws Exception {
    long seed = Seeds.seed("SchemaEvolutionITCase[savepoint, missing column, " + format + "]");
    LOG.info("seed {} for {} blocks, restored from a savepoint without name", seed, format);
    String path = dir.resolve("t").toUri().toString();
    Changelog changelog =
        restartFromASavepoint(
            seed,
            format,
            WIDER,
            SchemaEvolutionITCase::withNote,
            WITHOUT_NAME,
            SchemaEvolutionITCase::withoutName);

    Map<String, GenericRecord> table = HudiTableOracle.latestPerKey(path);
    Map<String, String> names = new HashMap<>();
    for (Changelog.Op winner : changelog.winners(false)) {
      String key = Long.toString(winner.id());
      if (winner.kind() == RowKind.DELETE) {
        assertThat(table).as("seed %s", seed).doesNotContainKey(key);
        continue;
      }
      GenericRecord row = table.get(key);
      String name = row.get("name") == null ? null : row.get("name").toString();
      assertThat(name).as("name of %s, seed %s", key, seed).isIn(null, winner.name());
      assertThat(List.of(row.get("ts"), row.get("amount"), row.get("note").toString()))
          .as("%s, seed %s", key, seed)
          .isEqualTo(List.of(winner.ts(), winner.amount(), note(winner)));
      names.put(key, name);
    }
    assertThat(names.values())
        .as("winners written by the second job (null) and the first; seed %s", seed)
        .containsNull()
        .anyMatch(Objects::nonNull);
    assertThat(HudiClient.scheduleAndCompact(path).isPresent()).isTrue();
    assertNamesRead(path, names, seed);
  }

  /**
   * Draws a changelog, runs a job of {@code before}'s columns on table {@code t} until it has ten
   * commits, stops it with a savepoint and runs a job of {@code after}'s columns from that
   * savepoint to the changelog's end; returns the changelog.
   */
  private Changelog restartFromASavepoint(
      long seed,
      LogBlockFormat format,
      RowType before,
      ChangelogSource.Converter<RowData> beforeRows,
      RowType after,
      ChangelogSource.Converter<RowData> afterRows)
      throws Exception {
    // most keys change once or twice, so many of the first job's changes stay their key's winner
    Changelog changelog = Changelog.random(seed, 600, 1_000, 30, 0);
    String path = dir.resolve("t").toUri().toString();
    JobClient first =
        Restores.submit(
            job(path, format, before, changelog, 15, 2, beforeRows), "schema, before", null);
    while (Restores.completedCommits(path) < 10) {
      assertThat(first.getJobStatus().get().isTerminalState())
          .as("the first job ended before its tenth commit")
          .isFalse();
      Thread.sleep(20);
    }
    String savepoint =
        Restores.stopWithSavepoint(
            first, dir.resolve("savepoints").toUri().toString(), Duration.ofMinutes(2));
    assertThat(savepoint).as("the first job's savepoint").isNotNull();
    Restores.submit(
            job(path, format, after, changelog, 15, 2, afterRows), "schema, after", savepoint)
        .getJobExecutionResult()
        .get();
    return changelog;
  }

  /**
   * A column dropped upstream: a second job lacks {@code name}, and with {@code
   * write.null-for-missing-columns} writes it as null. The table keeps the column: the keys the
   * second job wrote last read with a null name, the others with the first job's, through the
   * second job's compactions and Hudi's.
   */
  @ParameterizedTest
  @EnumSource(LogBlockFormat.class)
  void aColumnTheSinkLacksIsWrittenAsNull(LogBlockFormat format) throws Exception {
    long seed = Seeds.seed("SchemaEvolutionITCase[missing column, " + format + "]");
    LOG.info("seed {} for {} blocks, the name column dropped", seed, format);
    Changelog before = Changelog.random(seed, 300, 80, 30, 0);
    Changelog after = Changelog.random(seed + 1, 120, 80, 30, 0);
    String path = dir.resolve("t").toUri().toString();

    job(path, format, WIDER, before, 40, 2, SchemaEvolutionITCase::withNote).execute("all columns");
    long compactionsBefore = compactions();
    job(path, format, WITHOUT_NAME, after, 15, 2, SchemaEvolutionITCase::withoutName)
        .execute("name dropped");
    assertThat(compactions()).isGreaterThan(compactionsBefore);

    Map<String, String> names = new HashMap<>();
    before.expected(false).forEach((key, op) -> names.put(key, op.name()));
    for (Changelog.Op op : after.winners(false)) {
      String key = Long.toString(op.id());
      if (op.kind() == RowKind.DELETE) {
        names.remove(key);
      } else {
        names.put(key, null);
      }
    }
    assertThat(names.values()).as("seed %s", seed).containsNull().anyMatch(Objects::nonNull);
    assertNamesRead(path, names, seed);
    assertThat(HudiClient.scheduleAndCompact(path).isPresent()).isTrue();
    assertNamesRead(path, names, seed);
  }

  private static void assertNamesRead(String path, Map<String, String> names, long seed) {
    Map<String, GenericRecord> table = HudiTableOracle.latestPerKey(path);
    assertThat(table.keySet())
        .as("seed %s", seed)
        .containsExactlyInAnyOrderElementsOf(names.keySet());
    names.forEach(
        (key, name) ->
            assertThat(
                    table.get(key).get("name") == null
                        ? null
                        : table.get(key).get("name").toString())
                .as("name of %s, seed %s", key, seed)
                .isEqualTo(name));
  }

  /**
   * Checks that each key reads as its winner written by one job or the other, and returns the notes
   * read, null for the keys the first job's change won.
   */
  private static Map<String, String> assertReadAsEitherJobWroteIt(
      String path, Map<String, Changelog.Op> winners, long seed) {
    Map<String, GenericRecord> table = HudiTableOracle.latestPerKey(path);
    assertThat(table.keySet())
        .as("seed %s", seed)
        .containsExactlyInAnyOrderElementsOf(winners.keySet());
    Map<String, String> notes = new HashMap<>();
    winners.forEach(
        (key, winner) -> {
          GenericRecord row = table.get(key);
          String note = row.get("note") == null ? null : row.get("note").toString();
          Changelog.Op written = note == null ? widened(winner) : winner;
          assertThat(note).as("note of %s, seed %s", key, seed).isIn(null, note(winner));
          assertThat(
                  List.of(
                      row.get("name").toString(),
                      row.get("ts"),
                      row.get("amount"),
                      price(row),
                      row.get("code").toString()))
              .as("%s, note %s, seed %s", key, note, seed)
              .isEqualTo(
                  List.of(
                      written.name(),
                      written.ts(),
                      written.amount(),
                      price(winner),
                      Integer.toString(code(winner))));
          notes.put(key, note);
        });
    return notes;
  }

  private static void assertReadExact(
      String path, Map<String, Changelog.Op> expected, Map<String, String> notes, long seed) {
    Map<String, GenericRecord> table = HudiTableOracle.latestPerKey(path);
    assertThat(table.keySet())
        .as("seed %s", seed)
        .containsExactlyInAnyOrderElementsOf(expected.keySet());
    expected.forEach(
        (key, op) -> {
          GenericRecord row = table.get(key);
          assertThat(row.get("name")).as("name of %s, seed %s", key, seed).isEqualTo(op.name());
          assertThat(row.get("ts")).as("ts of %s, seed %s", key, seed).isEqualTo(op.ts());
          assertThat(row.get("amount")).as("amount of %s", key).isEqualTo(op.amount());
          assertThat(price(row)).as("price of %s", key).isEqualTo(price(op));
          assertThat(row.get("code").toString())
              .as("code of %s", key)
              .isEqualTo(Integer.toString(code(op)));
          assertThat(row.get("note") == null ? null : row.get("note").toString())
              .as("note of %s, seed %s", key, seed)
              .isEqualTo(notes.get(key));
        });
  }

  /** Completed compactions in the active timeline. */
  private long compactions() throws IOException {
    try (Stream<Path> files = Files.list(dir.resolve("t/.hoodie/timeline"))) {
      return files.filter(file -> file.getFileName().toString().endsWith(".commit")).count();
    }
  }

  /**
   * A job writing {@code changelog} as {@code rowType}, built on the test's MiniCluster; a column
   * of the table that {@code rowType} lacks is written as null.
   */
  private static StreamExecutionEnvironment job(
      String path,
      LogBlockFormat format,
      RowType rowType,
      Changelog changelog,
      int perCheckpoint,
      int compactionDeltaCommits,
      ChangelogSource.Converter<RowData> converter) {
    Configuration noRestarts = new Configuration();
    noRestarts.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(noRestarts);
    env.enableCheckpointing(50);
    MortarSink.builder(rowType)
        .path(path)
        .recordKey("id")
        .parallelism(2)
        .buckets(2)
        .logBlockFormat(format)
        .compactionDeltaCommits(compactionDeltaCommits)
        .compactionLogSizeRatio(0)
        .nullForMissingColumns(true)
        .build()
        .sinkTo(
            env.addSource(
                    new ChangelogSource<>(changelog, List.of(), perCheckpoint, converter),
                    "changelog",
                    InternalTypeInfo.of(rowType))
                .uid(SinkJob.SOURCE_UID)
                .setParallelism(1));
    return env;
  }

  private static RowType withoutColumn(RowType row, String name) {
    List<RowType.RowField> fields = new ArrayList<>(row.getFields());
    fields.remove(row.getFieldIndex(name));
    return new RowType(row.isNullable(), fields);
  }

  /** {@link Changelog#ROW_TYPE} with the types of some columns changed and columns added. */
  private static RowType changelogRow(Map<String, LogicalType> retyped, RowType.RowField... added) {
    List<RowType.RowField> fields = new ArrayList<>();
    for (RowType.RowField field : Changelog.ROW_TYPE.getFields()) {
      fields.add(
          new RowType.RowField(
              field.getName(), retyped.getOrDefault(field.getName(), field.getType())));
    }
    fields.addAll(List.of(added));
    return new RowType(false, fields);
  }

  /** {@code op} as {@link #NARROWER} holds it: {@code ts} an int, {@code amount} a float. */
  private static RowData narrowed(Changelog.Op op) {
    return GenericRowData.ofKind(
        op.kind(),
        op.id(),
        StringData.fromString(op.name()),
        (int) op.ts(),
        StringData.fromString(op.dt()),
        (float) op.amount(),
        DecimalData.fromBigDecimal(price(op), 10, 2),
        code(op));
  }

  /**
   * {@code op} as Hudi's reader of the widened table gives it back after {@link #narrowed}: a FLOAT
   * becomes the DOUBLE of its shortest decimal form, not Java's widening of it.
   */
  private static Changelog.Op widened(Changelog.Op op) {
    return new Changelog.Op(
        op.kind(),
        op.id(),
        op.name(),
        (int) op.ts(),
        op.dt(),
        Double.parseDouble(Float.toString((float) op.amount())));
  }

  private static RowData withNote(Changelog.Op op) {
    return GenericRowData.ofKind(op.kind(), widerValues(op).toArray());
  }

  /** {@link #withNote} without its name. */
  private static RowData withoutName(Changelog.Op op) {
    List<Object> values = widerValues(op);
    values.remove(WIDER.getFieldIndex("name"));
    return GenericRowData.ofKind(op.kind(), values.toArray());
  }

  /** {@code op}'s values as {@link #WIDER} holds them. */
  private static List<Object> widerValues(Changelog.Op op) {
    return new ArrayList<>(
        Arrays.asList(
            op.id(),
            StringData.fromString(op.name()),
            op.ts(),
            StringData.fromString(op.dt()),
            op.amount(),
            DecimalData.fromBigDecimal(price(op), 20, 2),
            StringData.fromString(Integer.toString(code(op))),
            StringData.fromString(note(op))));
  }

  /** A change's code: a number in the first job, its decimal string in the second. */
  private static int code(Changelog.Op op) {
    return (int) (op.id() * 7 + op.ts());
  }

  /** A change's price, two digits after the point; the same number in either job. */
  private static BigDecimal price(Changelog.Op op) {
    return BigDecimal.valueOf(op.id() * 1_000 + op.ts(), 2);
  }

  /** The price Hudi's reader gives: the unscaled bytes of a DECIMAL(20, 2). */
  private static BigDecimal price(GenericRecord row) {
    ByteBuffer bytes = ((ByteBuffer) row.get("price")).duplicate();
    byte[] unscaled = new byte[bytes.remaining()];
    bytes.get(unscaled);
    return new BigDecimal(new BigInteger(unscaled), 2);
  }

  private static String note(Changelog.Op op) {
    return "note of " + op.id() + " at " + op.ts();
  }
}
