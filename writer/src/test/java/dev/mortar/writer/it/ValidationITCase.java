package dev.mortar.writer.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mortar.buffer.Deduplication;
import dev.mortar.logformat.LogBlockFormat;
import dev.mortar.testing.HudiTableOracle;
import dev.mortar.writer.MortarOptions.NullKeyPolicy;
import dev.mortar.writer.MortarSink;
import java.nio.file.Path;
import java.util.Arrays;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
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
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
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
    SinkJob job =
        new SinkJob(
            path(),
            1,
            true,
            true,
            LogBlockFormat.AVRO,
            2,
            1000,
            false,
            false,
            true,
            Deduplication.ON_READ);
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
  void badValuesNameTheirOption() {
    assertThatThrownBy(() -> builder().buckets(0).build())
        .hasMessageContaining("'buckets' must be > 0, got 0");
    assertThatThrownBy(() -> builder().orderingField("name").build())
        .hasMessageContaining("ordering.field 'name' has type STRING");
    assertThatThrownBy(() -> builder().orderingField("nope").build())
        .hasMessageContaining("ordering.field 'nope' is not a column");
    assertThatThrownBy(() -> builder().recordKey("amount").build())
        .hasMessageContaining("field 'amount' has type DOUBLE");
    assertThatThrownBy(() -> builder().pageSize(MemorySize.parse("4gb")).build())
        .hasMessageContaining("'buffer.page-size' must be below 2 GiB, got 4294967296 bytes");
    assertThatThrownBy(() -> builder().pageSize(MemorySize.parse("1000b")).build())
        .hasMessageContaining("'buffer.page-size'");
    LogicalType[] fields = new LogicalType[16384];
    Arrays.fill(fields, new BigIntType(false));
    assertThatThrownBy(
            () -> MortarSink.builder(RowType.of(fields)).path(path()).recordKey("f0").build())
        .hasMessageContaining(
            "the row type has 16384 fields; the write buffer holds rows of at most 16383 fields");
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

  private static MortarSink.Builder builder() {
    return MortarSink.builder(Changelog.ROW_TYPE).path("file:///tmp/never-created").recordKey("id");
  }

  private static StreamExecutionEnvironment environment() {
    Configuration conf = new Configuration();
    conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
    return StreamExecutionEnvironment.getExecutionEnvironment(conf);
  }
}
