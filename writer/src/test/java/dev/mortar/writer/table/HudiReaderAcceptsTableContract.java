package dev.mortar.writer.table;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mortar.testing.HudiTableOracle;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;

/**
 * Contract run on each file system (local, HDFS): a table laid out by {@link HudiTable} and
 * committed by {@link Timeline}, its log files written by Hudi's own log writer, read back by
 * Hudi's {@code HoodieFileGroupReader}: completed instants are visible, a pending one is not, an
 * aborted one leaves nothing, and merging follows the table's merge mode.
 */
abstract class HudiReaderAcceptsTableContract {
  static final RowType ROW =
      RowType.of(
          new org.apache.flink.table.types.logical.LogicalType[] {
            new VarCharType(false, 20),
            new VarCharType(true, 20),
            new BigIntType(false),
            new VarCharType(true, 20)
          },
          new String[] {"id", "dt", "ts", "v"});

  static final int BUCKETS = 4;

  /** The file system the table lives on. */
  abstract FileSystem fs() throws Exception;

  /** A fresh, fully qualified base path for a table named {@code name}. */
  abstract String basePath(String name) throws Exception;

  @Test
  void eventTimeOrderingPartitionedTable() throws Exception {
    TableSettings settings = new TableSettings("t1", ROW, List.of("id"), List.of("dt"), "ts");
    String base = basePath("t1");
    HudiTable table = HudiTable.createOrValidate(fs(), new Path(base), settings);
    Timeline timeline = table.timeline();
    HudiLogFiles logs = new HudiLogFiles(base, schemaOf(table));

    String t1 = timeline.startInstant();
    List<WriteStat> first = new ArrayList<>();
    first.addAll(
        write(
            table,
            logs,
            t1,
            "2024-01-01",
            List.of(
                row(logs, "id1", "2024-01-01", 100, "a"),
                row(logs, "id2", "2024-01-01", 100, "a"),
                row(logs, "id3", "2024-01-01", 100, "a"),
                row(logs, "id4", "2024-01-01", 100, "a")),
            Map.of()));
    first.addAll(
        write(
            table,
            logs,
            t1,
            "2024-01-02",
            List.of(row(logs, "id5", "2024-01-02", 100, "a")),
            Map.of()));
    timeline.complete(t1, first, table.avroSchemaJson());

    String t2 = timeline.startInstant();
    List<WriteStat> second =
        write(
            table,
            logs,
            t2,
            "2024-01-01",
            List.of(
                row(logs, "id1", "2024-01-01", 200, "b"),
                row(logs, "id3", "2024-01-01", 50, "stale")),
            Map.of("id2", 200L));
    timeline.complete(t2, second, table.avroSchemaJson());
    timeline.complete(t2, second, table.avroSchemaJson());

    String t3 = timeline.startInstant();
    write(
        table,
        logs,
        t3,
        "2024-01-01",
        List.of(row(logs, "id4", "2024-01-01", 300, "pending")),
        Map.of());

    HudiTable reopened = HudiTable.createOrValidate(fs(), new Path(base), settings);
    String t4 = reopened.timeline().startInstant();
    assertThat(t4).isGreaterThan(t3);
    write(
        reopened,
        logs,
        t4,
        "2024-01-03",
        List.of(row(logs, "id6", "2024-01-03", 100, "aborted")),
        Map.of());
    reopened.timeline().abort(t4);

    Map<String, GenericRecord> view = HudiTableOracle.latestPerKey(base);
    assertThat(view).containsOnlyKeys("id1", "id3", "id4", "id5");
    assertThat(view.get("id1").get("v")).isEqualTo("b");
    assertThat(view.get("id3").get("v")).isEqualTo("a");
    assertThat(view.get("id4").get("v")).isEqualTo("a");
    assertThat(view.get("id5").get("_hoodie_partition_path")).isEqualTo("2024-01-02");
    assertThat(HudiTableOracle.completedInstants(base)).containsExactly(t1, t2);
    assertThat(HudiTableOracle.pendingInstants(base)).containsExactly(t3);
    assertThat(reopened.timeline().logFilesOf(t4)).isEmpty();
    assertThat(fs().exists(new Path(base, "2024-01-03/" + PartitionMetafile.NAME))).isTrue();
    assertThat(HudiTableOracle.fileGroups(base))
        .isEqualTo(
            Map.of(
                "2024-01-01", fileIds("t1", "2024-01-01", "id1", "id2", "id3", "id4"),
                "2024-01-02", fileIds("t1", "2024-01-02", "id5")));
  }

  @Test
  void commitTimeOrderingNonPartitionedTable() throws Exception {
    TableSettings settings = new TableSettings("t2", ROW, List.of("id"), List.of(), null);
    String base = basePath("t2");
    HudiTable table = HudiTable.createOrValidate(fs(), new Path(base), settings);
    Timeline timeline = table.timeline();
    HudiLogFiles logs = new HudiLogFiles(base, schemaOf(table));

    String t1 = timeline.startInstant();
    timeline.complete(
        t1,
        write(
            table,
            logs,
            t1,
            "",
            List.of(row(logs, "id1", null, 100, "a"), row(logs, "id2", null, 100, "a")),
            Map.of()),
        table.avroSchemaJson());
    String t2 = timeline.startInstant();
    timeline.complete(
        t2,
        write(
            table,
            logs,
            t2,
            "",
            List.of(row(logs, "id1", null, 50, "later-wins")),
            Map.of("id2", 0L)),
        table.avroSchemaJson());

    Map<String, GenericRecord> view = HudiTableOracle.latestPerKey(base);
    assertThat(view).containsOnlyKeys("id1");
    assertThat(view.get("id1").get("v")).isEqualTo("later-wins");
    assertThat(HudiTableOracle.fileGroups(base))
        .isEqualTo(Map.of("", fileIds("t2", "", "id1", "id2")));
  }

  /**
   * Writes rows and deletes of one instant as the writer would: one log file per bucket touched.
   */
  private List<WriteStat> write(
      HudiTable table,
      HudiLogFiles logs,
      String instant,
      String partition,
      List<GenericRecord> rows,
      Map<String, Long> deletes)
      throws Exception {
    table.ensurePartition(partition, instant);
    Map<Integer, List<GenericRecord>> rowsByBucket = new TreeMap<>();
    Map<Integer, Map<String, Long>> deletesByBucket = new TreeMap<>();
    for (GenericRecord row : rows) {
      rowsByBucket
          .computeIfAbsent(bucketOf(row.get("id").toString()), b -> new ArrayList<>())
          .add(row);
    }
    deletes.forEach(
        (key, ordering) ->
            deletesByBucket
                .computeIfAbsent(bucketOf(key), b -> new HashMap<>())
                .put(key, ordering));
    Set<Integer> buckets = new TreeSet<>(rowsByBucket.keySet());
    buckets.addAll(deletesByBucket.keySet());
    List<WriteStat> stats = new ArrayList<>();
    for (int bucket : buckets) {
      String fileId = BucketIndex.fileId(table.settings().tableName(), partition, bucket);
      stats.add(
          logs.write(
              partition,
              fileId,
              instant,
              rowsByBucket.getOrDefault(bucket, List.of()),
              deletesByBucket.getOrDefault(bucket, Map.of()),
              "id"));
    }
    return stats;
  }

  private static int bucketOf(String key) {
    return BucketIndex.bucketId(key, BUCKETS);
  }

  private static Set<String> fileIds(String table, String partition, String... keys) {
    Set<String> ids = new TreeSet<>();
    for (String key : keys) {
      ids.add(BucketIndex.fileId(table, partition, bucketOf(key)));
    }
    return ids;
  }

  private static GenericRecord row(HudiLogFiles logs, String id, String dt, long ts, String v) {
    HashMap<String, Object> values = new HashMap<>();
    values.put("id", id);
    values.put("dt", dt);
    values.put("ts", ts);
    values.put("v", v);
    return logs.row(values);
  }

  private static Schema schemaOf(HudiTable table) {
    return new Schema.Parser().parse(table.avroSchemaJson());
  }
}
