package dev.mortar.writer.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mortar.testing.HudiTableOracle;
import dev.mortar.writer.MortarSink;
import dev.mortar.writer.options.NullKeyPolicy;
import java.nio.file.Path;
import java.util.Map;
import org.apache.avro.generic.GenericRecord;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** Settings are checked when the job is built, with messages that name what to change. */
class ValidationITCase {
  @RegisterExtension static final MiniClusterExtension MINI_CLUSTER = MiniClusters.withSlots(2);

  @TempDir Path dir;

  private String path() {
    return dir.resolve("t").toUri().toString();
  }

  private void createTableWithKeyId() throws Exception {
    SinkJob job = SinkJob.at(path()).partitioned(true).ordering(true).perCheckpoint(1000).build();
    Changelog changelog = Changelog.random(7, 50, 20, 0, 0);
    job.runDataStream(changelog);
    job.verify(changelog);
  }

  @Test
  void existingTableWithAnotherRecordKeyFailsAtBuild() throws Exception {
    createTableWithKeyId();
    assertThatThrownBy(
            () ->
                MortarSink.builder(Changelog.ROW_TYPE)
                    .path(path())
                    .recordKey("name")
                    .partitionFields("dt")
                    .orderingField("ts")
                    .build())
        .hasMessageContaining("id")
        .hasMessageContaining("name");
  }

  @Test
  void existingTableWithAnotherBucketCountFailsAtBuild() throws Exception {
    createTableWithKeyId();
    assertThatThrownBy(
            () ->
                MortarSink.builder(Changelog.ROW_TYPE)
                    .path(path())
                    .recordKey("id")
                    .partitionFields("dt")
                    .orderingField("ts")
                    .buckets(4)
                    .build())
        .hasMessageContaining("has 2 buckets per partition, the sink is set to 4")
        .hasMessageContaining("set 'buckets' = '2'");
  }

  @Test
  void sqlJobOnExistingTableWithAnotherPartitionFieldFailsAtBuild() throws Exception {
    createTableWithKeyId();
    TableEnvironment tables = StreamTableEnvironment.create(environment());
    tables.executeSql(
        "CREATE TABLE items (id BIGINT NOT NULL, name STRING, ts BIGINT, dt STRING, amount DOUBLE,"
            + " PRIMARY KEY (id) NOT ENFORCED) PARTITIONED BY (name) WITH ('connector' = 'mortar',"
            + " 'path' = '"
            + path()
            + "', 'ordering.field' = 'ts')");
    assertThatThrownBy(
            () -> tables.executeSql("INSERT INTO items VALUES (1, 'a', 1, 'x', 1.0)").await())
        .isInstanceOf(ValidationException.class)
        .satisfies(
            e ->
                assertThat(ExceptionUtils.stringifyException(e))
                    .contains("Invalid Mortar table 'items'")
                    .contains("dt")
                    .contains("name"));
  }

  @Test
  void aSqlTableLackingAColumnFailsOrWritesItAsNullByOption() throws Exception {
    createTableWithKeyId();
    Map<String, GenericRecord> before = HudiTableOracle.latestPerKey(path());
    StreamExecutionEnvironment env = environment();
    env.enableCheckpointing(50);
    TableEnvironment tables = StreamTableEnvironment.create(env);
    String ddl =
        "CREATE TABLE %s (id BIGINT NOT NULL, ts BIGINT, dt STRING, amount DOUBLE, PRIMARY KEY (id)"
            + " NOT ENFORCED) PARTITIONED BY (dt) WITH ('connector' = 'mortar', 'path' = '"
            + path()
            + "', 'ordering.field' = 'ts', 'buckets' = '2'%s)";
    tables.executeSql(String.format(ddl, "items", ""));
    assertThatThrownBy(
            () ->
                tables.executeSql("INSERT INTO items VALUES (1000, 1, '2026-11-01', 1.0)").await())
        .isInstanceOf(ValidationException.class)
        .satisfies(
            e ->
                assertThat(ExceptionUtils.stringifyException(e))
                    .contains("has columns the sink lacks: [name]")
                    .contains("'write.null-for-missing-columns' = 'true'"));

    tables.executeSql(String.format(ddl, "dropped", ", 'write.null-for-missing-columns' = 'true'"));
    tables.executeSql("INSERT INTO dropped VALUES (1000, 1, '2026-11-01', 1.5)").await();

    Map<String, GenericRecord> after = HudiTableOracle.latestPerKey(path());
    assertThat(after.get("1000").get("name")).isNull();
    assertThat(after.get("1000").get("amount")).isEqualTo(1.5);
    assertThat(after).hasSize(before.size() + 1);
    before.forEach(
        (key, row) ->
            assertThat(after.get(key).get("name").toString())
                .as("name of %s", key)
                .isEqualTo(row.get("name").toString()));
  }

  @Test
  void unknownSqlOptionFailsAtBuild() {
    TableEnvironment tables = StreamTableEnvironment.create(environment());
    tables.executeSql(
        "CREATE TABLE items (id BIGINT NOT NULL, ts BIGINT, PRIMARY KEY (id) NOT ENFORCED) WITH"
            + " ('connector' = 'mortar', 'path' = '"
            + path()
            + "', 'ordering.feild' = 'ts')");
    assertThatThrownBy(() -> tables.executeSql("INSERT INTO items VALUES (1, 1)"))
        .isInstanceOf(ValidationException.class)
        .satisfies(
            e ->
                assertThat(ExceptionUtils.stringifyException(e))
                    .contains("Unsupported options")
                    .contains("ordering.feild"));
  }

  @Test
  void sqlTableWithoutPrimaryKeyFailsAtBuild() {
    TableEnvironment tables = StreamTableEnvironment.create(environment());
    tables.executeSql(
        "CREATE TABLE items (id BIGINT NOT NULL, ts BIGINT) WITH ('connector' = 'mortar', 'path'"
            + " = '"
            + path()
            + "')");
    assertThatThrownBy(() -> tables.executeSql("INSERT INTO items VALUES (1, 1)"))
        .satisfies(
            e -> assertThat(ExceptionUtils.stringifyException(e)).contains("needs a PRIMARY KEY"));
  }

  @Test
  void nullRecordKeyFailsNamingTheFieldOrIsDroppedByOption() throws Exception {
    RowType rowType =
        (RowType)
            DataTypes.ROW(
                    DataTypes.FIELD("k", DataTypes.STRING()), DataTypes.FIELD("v", DataTypes.INT()))
                .getLogicalType();
    StreamExecutionEnvironment failing = environment();
    MortarSink.builder(rowType).path(path()).recordKey("k").build().sinkTo(rows(failing, rowType));
    assertThatThrownBy(failing::execute)
        .satisfies(
            e ->
                assertThat(ExceptionUtils.stringifyException(e))
                    .contains("record key field(s) [k] are null or empty in row +I(k=null, v=2)")
                    .contains("'null-key.policy' = 'drop'"));

    String dropPath = dir.resolve("dropping").toUri().toString();
    StreamExecutionEnvironment dropping = environment();
    MortarSink.builder(rowType)
        .path(dropPath)
        .recordKey("k")
        .nullKeyPolicy(NullKeyPolicy.DROP)
        .build()
        .sinkTo(rows(dropping, rowType));
    dropping.execute();
    assertThat(HudiTableOracle.latestPerKey(dropPath).keySet()).containsExactly("a");
  }

  private static org.apache.flink.streaming.api.datastream.DataStream<RowData> rows(
      StreamExecutionEnvironment env, RowType rowType) {
    return env.fromData(
            InternalTypeInfo.of(rowType),
            (RowData) GenericRowData.of(StringData.fromString("a"), 1),
            GenericRowData.of(null, 2))
        .setParallelism(1);
  }

  private static StreamExecutionEnvironment environment() {
    Configuration conf = new Configuration();
    conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
    return StreamExecutionEnvironment.getExecutionEnvironment(conf);
  }
}
