package dev.mortar.writer.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mortar.logformat.LogBlockFormat;
import dev.mortar.testing.HudiTableOracle;
import dev.mortar.testing.Seeds;
import dev.mortar.writer.MortarSink;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.avro.generic.GenericRecord;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.RowKind;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A table gains a nullable column at its end: a first job writes and compacts it with {@link
 * Changelog#ROW_TYPE}, a second job on the same path writes the same keys with a column {@code
 * note} added and compacts slices whose base files and logs are of the old schema. Hudi's reader
 * reads the table exact: the second job's rows with their note, the others with a null one.
 */
class AddedColumnsITCase {
  private static final Logger LOG = LoggerFactory.getLogger(AddedColumnsITCase.class);

  /** {@link Changelog#ROW_TYPE} and a nullable {@code note} after its last column. */
  private static final RowType WIDER = withNoteColumn(Changelog.ROW_TYPE);

  @RegisterExtension static final MiniClusterExtension MINI_CLUSTER = MiniClusters.withSlots(2);

  @TempDir Path dir;

  @ParameterizedTest
  @EnumSource(LogBlockFormat.class)
  void aNullableColumnAddedAtTheEndIsWrittenCompactedAndRead(LogBlockFormat format)
      throws Exception {
    long seed = Seeds.seed("AddedColumnsITCase[" + format + "]");
    LOG.info("seed {} for {} blocks", seed, format);
    Changelog before = Changelog.random(seed, 300, 80, 30, 0);
    Changelog after = Changelog.random(seed + 1, 300, 80, 30, 0);
    String path = dir.resolve("t").toUri().toString();

    run(path, format, Changelog.ROW_TYPE, before, Changelog.Op::toRowData);
    long compactionsBefore = compactions();
    run(path, format, WIDER, after, AddedColumnsITCase::withNote);
    assertThat(compactions())
        .as("compactions of the second job, over files of the old schema; seed %s", seed)
        .isGreaterThan(compactionsBefore);

    Map<String, Changelog.Op> expected = new HashMap<>(before.expected(false));
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
    Map<String, GenericRecord> table = HudiTableOracle.latestPerKey(path);
    assertThat(table.keySet())
        .as("seed %s", seed)
        .containsExactlyInAnyOrderElementsOf(expected.keySet());
    expected.forEach(
        (key, op) -> {
          GenericRecord row = table.get(key);
          assertThat(row.get("name")).as("name of %s, seed %s", key, seed).isEqualTo(op.name());
          assertThat(row.get("amount")).as("amount of %s", key).isEqualTo(op.amount());
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

  private static void run(
      String path,
      LogBlockFormat format,
      RowType rowType,
      Changelog changelog,
      ChangelogSource.Converter<RowData> converter)
      throws Exception {
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
        .compactionDeltaCommits(2)
        .compactionLogSizeRatio(0)
        .build()
        .sinkTo(
            env.addSource(
                    new ChangelogSource<>(changelog, List.of(), 40, converter),
                    "changelog",
                    InternalTypeInfo.of(rowType))
                .setParallelism(1));
    env.execute("added columns");
  }

  private static RowType withNoteColumn(RowType rowType) {
    List<RowType.RowField> fields = new ArrayList<>(rowType.getFields());
    fields.add(new RowType.RowField("note", new VarCharType(true, VarCharType.MAX_LENGTH)));
    return new RowType(rowType.isNullable(), fields);
  }

  private static RowData withNote(Changelog.Op op) {
    RowData narrow = op.toRowData();
    GenericRowData row = new GenericRowData(narrow.getRowKind(), WIDER.getFieldCount());
    List<RowData.FieldGetter> getters = new ArrayList<>();
    for (int i = 0; i < narrow.getArity(); i++) {
      getters.add(RowData.createFieldGetter(Changelog.ROW_TYPE.getTypeAt(i), i));
    }
    for (int i = 0; i < getters.size(); i++) {
      row.setField(i, getters.get(i).getFieldOrNull(narrow));
    }
    row.setField(narrow.getArity(), StringData.fromString(note(op)));
    return row;
  }

  private static String note(Changelog.Op op) {
    return "note of " + op.id() + " at " + op.ts();
  }
}
