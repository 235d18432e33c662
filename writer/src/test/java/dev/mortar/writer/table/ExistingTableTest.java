package dev.mortar.writer.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link ExistingTable#validate}: a sink must write the schema the table has. */
class ExistingTableTest {
  private static final RowType ROW = HudiReaderAcceptsTableContract.ROW;
  private static final LogicalType NOTE = new VarCharType(true, 10);

  @TempDir java.nio.file.Path dir;
  private FileSystem fs;
  private Path base;

  @BeforeEach
  void setUp() throws Exception {
    fs = FileSystem.getLocal(new Configuration());
    base = new Path(dir.resolve("t1").toString());
  }

  @Test
  void aSinkWithTheTablesColumnsIsAccepted() {
    HudiTable.createOrValidate(fs, base, settings(ROW));

    assertThatCode(() -> validate(ROW)).doesNotThrowAnyException();
    // VARCHAR(20) and STRING are one Avro type: the table cannot tell them apart.
    assertThatCode(() -> validate(withType(ROW, 3, new VarCharType(true, VarCharType.MAX_LENGTH))))
        .doesNotThrowAnyException();
  }

  @Test
  void nullableColumnsAddedAtTheEndAreAccepted() {
    HudiTable.createOrValidate(fs, base, settings(ROW));

    assertThatCode(() -> validate(withColumn(ROW, 4, "extra", new BigIntType(true))))
        .doesNotThrowAnyException();
    assertThatCode(
            () ->
                validate(
                    withColumn(
                        withColumn(ROW, 4, "extra", new BigIntType(true)),
                        5,
                        "more",
                        new VarCharType(true, 10))))
        .doesNotThrowAnyException();
  }

  @Test
  void anAddedNotNullColumnFailsNamingIt() {
    HudiTable.createOrValidate(fs, base, settings(ROW));

    assertThatThrownBy(() -> validate(withColumn(ROW, 4, "extra", new BigIntType(false))))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining(base.toString())
        .hasMessageContaining("expected 4 fields [id, dt, ts, v], found 5")
        .hasMessageContaining("extra")
        .hasMessageContaining("write to a new path");
  }

  @Test
  void aColumnAddedBeforeTheLastFailsNamingIt() {
    HudiTable.createOrValidate(fs, base, settings(ROW));

    assertThatThrownBy(() -> validate(withColumn(ROW, 1, "extra", new BigIntType(true))))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("field 1 expected 'dt'")
        .hasMessageContaining("found 'extra'");
  }

  @Test
  void aColumnOfAnotherTypeFailsNamingIt() {
    HudiTable.createOrValidate(fs, base, settings(ROW));

    assertThatThrownBy(() -> validate(withType(ROW, 2, new IntType(false))))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("field 2 expected 'ts' \"long\"")
        .hasMessageContaining("found 'ts' \"int\"");
  }

  @Test
  void widenedColumnsAreAccepted() {
    RowType table = withColumn(ROW, 4, "n", new IntType(true));
    HudiTable.createOrValidate(fs, base, settings(table));

    assertThatCode(() -> validate(withType(table, 4, new BigIntType(true))))
        .doesNotThrowAnyException();
    assertThatCode(
            () -> validate(withColumn(withType(table, 4, new DoubleType(true)), 5, "m", NOTE)))
        .doesNotThrowAnyException();
  }

  @Test
  void aWidenedOrderingColumnFailsNamingIt() {
    HudiTable.createOrValidate(fs, base, settings(withType(ROW, 2, new IntType(false))));

    assertThatThrownBy(() -> validate(ROW))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining(base.toString())
        .hasMessageContaining("column 'ts' as INT NOT NULL, the sink declares it BIGINT NOT NULL")
        .hasMessageContaining("cannot be widened");
  }

  @Test
  void aSinkLackingAColumnFailsNamingItAndTheOption() {
    HudiTable.createOrValidate(fs, base, settings(ROW));

    assertThatThrownBy(() -> validate(withoutColumn(ROW, 3)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining(base.toString())
        .hasMessageContaining("has columns the sink lacks: [v]")
        .hasMessageContaining("'write.null-for-missing-columns' = 'true'");
  }

  @Test
  void withTheOptionMissingColumnsAreWrittenAsNullByName() {
    HudiTable.createOrValidate(fs, base, settings(ROW));
    // v dropped, dt after ts, a column added
    RowType sink =
        withColumn(
            withColumn(withoutColumn(withoutColumn(ROW, 3), 1), 2, "dt", NOTE), 3, "extra", NOTE);

    MissingColumns written =
        ExistingTable.validate(
                base.toString(), settings(sink), HudiReaderAcceptsTableContract.BUCKETS, true)
            .orElseThrow();

    assertThat(written.rowType().getFieldNames()).containsExactly("id", "dt", "ts", "v", "extra");
    assertThat(written.inputFields()).containsExactly(0, 2, 1, -1, 3);
    assertThat(written.rowType().getTypeAt(3).isNullable()).isTrue();
    assertThat(
            ExistingTable.validate(
                base.toString(), settings(ROW), HudiReaderAcceptsTableContract.BUCKETS, true))
        .as("a sink with every column")
        .isEmpty();
  }

  @Test
  void aMissingNotNullColumnFailsNamingIt() {
    HudiTable.createOrValidate(fs, base, settings(withColumn(ROW, 4, "n", new BigIntType(false))));

    assertThatThrownBy(
            () ->
                ExistingTable.validate(
                    base.toString(), settings(ROW), HudiReaderAcceptsTableContract.BUCKETS, true))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("has column 'n' NOT NULL, which the sink lacks");
  }

  @Test
  void theNewestCommitsSchemaIsTheTables() throws Exception {
    RowType widened = withColumn(ROW, 4, "extra", new BigIntType(true));
    Timeline timeline = HudiTable.createOrValidate(fs, base, settings(ROW)).timeline();
    String instant = timeline.startInstant();
    timeline.complete(instant, List.of(), settings(widened).avroSchema().toString());

    assertThatCode(() -> validate(widened)).doesNotThrowAnyException();
    assertThatThrownBy(() -> validate(ROW))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("has columns the sink lacks: [extra]");
  }

  private void validate(RowType row) {
    ExistingTable.validate(
        base.toString(), settings(row), HudiReaderAcceptsTableContract.BUCKETS, false);
  }

  private static TableSettings settings(RowType row) {
    return new TableSettings("t1", row, List.of("id"), List.of("dt"), "ts");
  }

  private static RowType withColumn(RowType row, int at, String name, LogicalType type) {
    List<RowType.RowField> fields = new ArrayList<>(row.getFields());
    fields.add(at, new RowType.RowField(name, type));
    return new RowType(row.isNullable(), fields);
  }

  private static RowType withoutColumn(RowType row, int field) {
    List<RowType.RowField> fields = new ArrayList<>(row.getFields());
    fields.remove(field);
    return new RowType(row.isNullable(), fields);
  }

  private static RowType withType(RowType row, int field, LogicalType type) {
    List<RowType.RowField> fields = new ArrayList<>(row.getFields());
    fields.set(field, new RowType.RowField(fields.get(field).getName(), type));
    return new RowType(row.isNullable(), fields);
  }
}
