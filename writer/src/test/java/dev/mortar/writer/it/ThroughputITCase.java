package dev.mortar.writer.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mortar.testing.HudiTableOracle;
import java.nio.file.Path;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A rough throughput figure for rfc/0004 (not part of CI): {@code -Dmortar.throughput.rows=N}
 * upserts N DataGen rows of the benchmark's Schema1 with distinct keys through the SQL connector,
 * logs rows/s, and checks that Hudi's reader finds N rows. {@code -Dmortar.throughput.parallelism}
 * (default 2) and {@code -Dmortar.throughput.format} (default avro) vary the sink.
 */
@EnabledIfSystemProperty(named = "mortar.throughput.rows", matches = "\\d+")
class ThroughputITCase {
  private static final Logger LOG = LoggerFactory.getLogger(ThroughputITCase.class);

  @RegisterExtension static final MiniClusterExtension MINI_CLUSTER = MiniClusters.withSlots(4);

  @TempDir Path dir;

  @Test
  void schema1Upserts() throws Exception {
    long rows = Long.getLong("mortar.throughput.rows");
    int parallelism = Integer.getInteger("mortar.throughput.parallelism", 2);
    String format = System.getProperty("mortar.throughput.format", "avro");
    String path = dir.resolve("items").toUri().toString();
    StreamExecutionEnvironment env =
        StreamExecutionEnvironment.getExecutionEnvironment(new Configuration());
    env.enableCheckpointing(10_000);
    env.setParallelism(parallelism);
    StreamTableEnvironment tables = StreamTableEnvironment.create(env);
    String counters =
        "item_click_uv_1d BIGINT, item_click_pv_1d BIGINT, item_like_uv_1d BIGINT,"
            + " item_like_pv_1d BIGINT, item_cart_uv_1d BIGINT, item_cart_pv_1d BIGINT,"
            + " item_share_uv_1d BIGINT, item_share_pv_1d BIGINT";
    tables.executeSql(
        "CREATE TABLE source (item_id BIGINT, item_name STRING, "
            + counters
            + ") WITH ('connector' = 'datagen', 'fields.item_id.kind' = 'sequence',"
            + " 'fields.item_id.start' = '0', 'fields.item_id.end' = '"
            + (rows - 1)
            + "', 'fields.item_name.length' = '80')");
    tables.executeSql(
        "CREATE TABLE items (item_id BIGINT NOT NULL, item_name STRING, "
            + counters
            + ", ts TIMESTAMP(3), PRIMARY KEY (item_id) NOT ENFORCED) WITH ('connector' ="
            + " 'mortar', 'path' = '"
            + path
            + "', 'buckets' = '16', 'ordering.field' = 'ts', 'log.block.format' = '"
            + format
            + "')");
    long start = System.nanoTime();
    tables
        .executeSql(
            "INSERT INTO items SELECT item_id, item_name, item_click_uv_1d, item_click_pv_1d,"
                + " item_like_uv_1d, item_like_pv_1d, item_cart_uv_1d, item_cart_pv_1d,"
                + " item_share_uv_1d, item_share_pv_1d, CAST(NOW() AS TIMESTAMP(3)) FROM source")
        .await();
    double seconds = (System.nanoTime() - start) / 1e9;
    LOG.info(
        "THROUGHPUT {} rows, parallelism {}, {} blocks: {} s, {} rows/s",
        rows,
        parallelism,
        format,
        String.format("%.1f", seconds),
        String.format("%.0f", rows / seconds));
    assertThat(HudiTableOracle.latestPerKey(path)).hasSize((int) rows);
  }
}
