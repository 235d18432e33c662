package dev.mortar.writer.it;

import static dev.mortar.buffer.Deduplication.ON_APPEND;
import static dev.mortar.buffer.Deduplication.ON_READ;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mortar.buffer.Deduplication;
import dev.mortar.logformat.LogBlockFormat;
import dev.mortar.testing.HudiTableOracle;
import dev.mortar.testing.Seeds;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.avro.generic.GenericRecord;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * DataStream and SQL jobs on a MiniCluster upsert a random changelog (inserts, updates,
 * out-of-order updates, deletes, UPDATE_BEFORE rows) over several checkpoints; Hudi's reader must
 * show exactly the latest row per key computed by {@link Changelog#expected}. Seeds are logged;
 * re-run one with {@code -Dmortar.seed=...}.
 */
class EndToEndITCase {
  private static final Logger LOG = LoggerFactory.getLogger(EndToEndITCase.class);

  @RegisterExtension static final MiniClusterExtension MINI_CLUSTER = MiniClusters.withSlots(4);

  @TempDir Path dir;

  static Stream<Arguments> jobs() {
    return Stream.of(
        Arguments.of("datastream", 1, false, true, LogBlockFormat.AVRO, false, true, ON_READ),
        Arguments.of("datastream", 2, true, true, LogBlockFormat.AVRO, true, true, ON_APPEND),
        Arguments.of("datastream", 2, false, false, LogBlockFormat.PARQUET, false, true, ON_READ),
        Arguments.of("datastream", 1, true, false, LogBlockFormat.PARQUET, true, true, ON_APPEND),
        Arguments.of("sql", 2, true, true, LogBlockFormat.PARQUET, false, true, ON_READ),
        Arguments.of("sql", 1, false, false, LogBlockFormat.AVRO, true, true, ON_READ),
        Arguments.of("datastream", 2, true, true, LogBlockFormat.AVRO, false, false, ON_APPEND),
        Arguments.of("sql", 1, false, false, LogBlockFormat.PARQUET, true, false, ON_READ));
  }

  @ParameterizedTest(
      name = "{0} p={1} partitioned={2} ordering={3} {4} smallBuffers={5} metaFields={6} {7}")
  @MethodSource("jobs")
  void hudiReaderSeesLatestRowPerKey(
      String api,
      int parallelism,
      boolean partitioned,
      boolean ordering,
      LogBlockFormat format,
      boolean smallBuffers,
      boolean metaFields,
      Deduplication deduplication)
      throws Exception {
    long seed = Seeds.seed("EndToEndITCase");
    LOG.info(
        "seed {} for {} p={} partitioned={} ordering={} {}",
        seed,
        api,
        parallelism,
        partitioned,
        ordering,
        format);
    Changelog changelog = Changelog.random(seed, 1000, 200, 100, 50);
    SinkJob job =
        SinkJob.at(dir.resolve("t").toUri().toString())
            .parallelism(parallelism)
            .partitioned(partitioned)
            .ordering(ordering)
            .format(format)
            .buckets(3)
            .perCheckpoint(250)
            .smallBuffers(smallBuffers)
            .metaFields(metaFields)
            .deduplication(deduplication)
            .build();
    if (api.equals("sql")) {
      job.runSql(changelog);
    } else {
      job.runDataStream(changelog);
    }
    job.verify(changelog);
    assertThat(HudiTableOracle.completedInstants(job.path()))
        .as("seed %s", seed)
        .hasSizeGreaterThan(2);
    assertThat(HudiTableOracle.pendingInstants(job.path())).as("seed %s", seed).isEmpty();
  }

  @Test
  void staticPartitionValuesReachTheRows() throws Exception {
    String path = dir.resolve("static").toUri().toString();
    SinkJob job = SinkJob.at(path).partitioned(true).ordering(true).build();
    TableEnvironment tables = StreamTableEnvironment.create(job.environment());
    tables.executeSql(job.ddl("items")).await();
    tables
        .executeSql("INSERT INTO items PARTITION (dt = '2026-11-09') VALUES (1, 'a', 5, 2.0)")
        .await();
    GenericRecord row = HudiTableOracle.latestPerKey(path).get("1");
    assertThat(row.get("dt")).isEqualTo("2026-11-09");
    assertThat(row.get("_hoodie_partition_path")).isEqualTo("2026-11-09");
  }

  /**
   * An insert-only query into the keyed table plans no upsert materializer and needs no {@code ON
   * CONFLICT} clause on any Flink line (Flink 2.3 asks for one when an upsert sink's input has no
   * upsert key); the sink keeps the last row per key itself.
   */
  @Test
  void anInsertOnlyQueryKeepsTheLastRowPerKeyWithoutAConflictClause() throws Exception {
    String path = dir.resolve("appended").toUri().toString();
    SinkJob job = SinkJob.at(path).build();
    TableEnvironment tables = StreamTableEnvironment.create(job.environment());
    tables.executeSql(job.ddl("items")).await();
    String insert =
        "INSERT INTO items VALUES (1, 'a', 5, 'x', 2.0), (2, 'b', 5, 'x', 3.0),"
            + " (1, 'c', 4, 'x', 4.0)";
    assertThat(tables.explainSql(insert)).doesNotContain("upsertMaterialize=[true]");
    tables.executeSql(insert).await();
    Map<String, GenericRecord> rows = HudiTableOracle.latestPerKey(path);
    assertThat(rows).containsOnlyKeys("1", "2");
    assertThat(rows.get("1").get("name")).hasToString("c");
  }
}
