package dev.mortar.benchmark.e2e;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.flink.table.api.TableEnvironment;

/**
 * The sinks the benchmark compares, each as the Flink SQL table the workload is inserted into.
 *
 * <ul>
 *   <li>{@link #BLACKHOLE}: Flink's blackhole connector, the source's own limit.
 *   <li>{@link #MORTAR_AVRO}, {@link #MORTAR_PARQUET}: Mortar's {@code 'connector' = 'mortar'} with
 *       Avro or Parquet log blocks, {@code buckets} file groups, no compaction (write-only, as
 *       {@link #PAIMON}).
 *   <li>{@link #MORTAR_AVRO_NO_META}: Mortar with Avro blocks and {@code
 *       'hoodie.populate.meta.fields' = 'false'} (records without Hudi's five meta fields; not in
 *       the default systems).
 *   <li>{@link #MORTAR_AVRO_OFF_HEAP}: Mortar with Avro blocks and {@code 'buffer.off-heap' =
 *       'true'} (buffer pages outside the Java heap; not in the default systems).
 *   <li>{@link #MORTAR_AVRO_MANAGED}: Mortar with Avro blocks and {@code 'buffer.managed-memory' =
 *       'true'} (pages in the slot's managed memory, of which the cluster has {@code
 *       buffer.memory}'s default per slot; not in the default systems).
 *   <li>{@link #MORTAR_AVRO_COMPACTING}: the production configuration, Avro blocks and compaction
 *       in the job every 5 delta commits, cleaning and archival, at the options' defaults (not in
 *       the default systems).
 *   <li>{@link #MORTAR_AVRO_EVERY_SLICE_COMPACTING}: the same, but every plan takes every slice
 *       with logs, Hudi's default strategy ({@code 'compaction.log-size-ratio' = '0'}; not in the
 *       default systems).
 *   <li>{@link #PAIMON}: Apache Paimon's primary-key table with fixed buckets, {@code write-only},
 *       snappy and {@code write-buffer-spillable = false}: the options of the Hudi 1.1 vs Paimon
 *       comparison ("as the blog ran it" in shared/spec/benchmark-workload.md).
 *   <li>{@link #PAIMON_COMPACTING}: the same table without {@code write-only}, so that Paimon's
 *       writer compacts its sorted runs as it writes (its default; not in the default systems).
 * </ul>
 *
 * Mortar and Paimon write to a fresh directory on local disk per job.
 */
public enum SystemUnderTest {
  BLACKHOLE(Connector.BLACKHOLE, ""),
  MORTAR_AVRO(
      Connector.MORTAR, "'log.block.format' = 'avro', 'compaction.schedule.enabled' = 'false'"),
  MORTAR_PARQUET(
      Connector.MORTAR, "'log.block.format' = 'parquet', 'compaction.schedule.enabled' = 'false'"),
  MORTAR_AVRO_NO_META(
      Connector.MORTAR,
      "'log.block.format' = 'avro', 'hoodie.populate.meta.fields' = 'false',"
          + " 'compaction.schedule.enabled' = 'false'"),
  MORTAR_AVRO_OFF_HEAP(
      Connector.MORTAR,
      "'log.block.format' = 'avro', 'buffer.off-heap' = 'true',"
          + " 'compaction.schedule.enabled' = 'false'"),
  MORTAR_AVRO_MANAGED(
      Connector.MORTAR,
      "'log.block.format' = 'avro', 'buffer.managed-memory' = 'true',"
          + " 'compaction.schedule.enabled' = 'false'"),
  MORTAR_AVRO_COMPACTING(
      Connector.MORTAR,
      "'log.block.format' = 'avro', 'compaction.schedule.enabled' = 'true',"
          + " 'compaction.delta-commits' = '5'"),
  MORTAR_AVRO_EVERY_SLICE_COMPACTING(
      Connector.MORTAR,
      "'log.block.format' = 'avro', 'compaction.schedule.enabled' = 'true',"
          + " 'compaction.delta-commits' = '5', 'compaction.log-size-ratio' = '0'"),
  PAIMON(Connector.PAIMON, ", 'write-only' = 'true'"),
  PAIMON_COMPACTING(Connector.PAIMON, "");

  private static final String SINK = "workload_sink";

  /**
   * Where a Paimon system's table lies in its warehouse: database {@code default}, {@link #SINK}.
   */
  private static final String PAIMON_TABLE_DIR = "default.db/" + SINK;

  /** The Flink connector a system writes through. */
  private enum Connector {
    BLACKHOLE,
    MORTAR,
    PAIMON
  }

  private final Connector connector;

  /**
   * The system's own table options: for Mortar every option besides path and buckets; for Paimon
   * what is appended to the bucket and file options all Paimon systems share. So a new system is
   * one constant, with nothing to add to {@link #createSink}.
   */
  private final String options;

  SystemUnderTest(Connector connector, String options) {
    this.connector = connector;
    this.options = options;
  }

  /** Parses the flag spelling ({@link #flagName()}), ignoring case. */
  public static SystemUnderTest parse(String text) {
    for (SystemUnderTest system : values()) {
      if (system.flagName().equalsIgnoreCase(text)) {
        return system;
      }
    }
    throw new IllegalArgumentException(
        "unknown system '" + text + "': expected one of " + flagNames(", "));
  }

  /** The flag spellings of every system, joined by {@code separator}, for help and errors. */
  public static String flagNames(String separator) {
    return Arrays.stream(values())
        .map(SystemUnderTest::flagName)
        .collect(Collectors.joining(separator));
  }

  /** The spelling in flags and reports. */
  public String flagName() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /** True for the sinks that write a table to disk. */
  public boolean writesTable() {
    return connector != Connector.BLACKHOLE;
  }

  /**
   * What the system's job left in {@code tableDir}, by name: Hudi's log and base files and timeline
   * for Mortar, data files and sorted runs for Paimon; empty for the blackhole.
   */
  public Map<String, Long> filesLeft(Path tableDir) throws IOException {
    return switch (connector) {
      case BLACKHOLE -> Map.of();
      case MORTAR -> HudiTableFiles.count(tableDir).asMap();
      case PAIMON -> PaimonTableFiles.count(tableDir.resolve(PAIMON_TABLE_DIR)).asMap();
    };
  }

  /**
   * Creates the sink table in {@code env} and returns the identifier to insert into.
   *
   * @param tableDir a fresh directory the sink may write its table into
   * @param buckets fixed buckets (file groups) of the table
   */
  public String createSink(TableEnvironment env, Workload workload, Path tableDir, int buckets) {
    String columns = workload.sinkColumns() + ", PRIMARY KEY (`item_id`) NOT ENFORCED";
    switch (connector) {
      case BLACKHOLE -> {
        env.executeSql(
            "CREATE TEMPORARY TABLE "
                + SINK
                + " ("
                + columns
                + ") WITH ('connector' = 'blackhole')");
        return SINK;
      }
      case PAIMON -> {
        env.executeSql(
            "CREATE CATALOG paimon_catalog WITH ('type' = 'paimon', 'warehouse' = '"
                + tableDir.toUri()
                + "')");
        String table = "paimon_catalog.`default`." + SINK;
        env.executeSql(
            "CREATE TABLE "
                + table
                + " ("
                + columns
                + ") WITH ('bucket' = '"
                + buckets
                + "', 'file.compression' = 'snappy', 'write-buffer-spillable' = 'false'"
                + options
                + ")");
        return table;
      }
      case MORTAR -> {
        env.executeSql(
            "CREATE TEMPORARY TABLE "
                + SINK
                + " ("
                + columns
                + ") WITH ('connector' = 'mortar', 'path' = '"
                + tableDir.toUri()
                + "', 'buckets' = '"
                + buckets
                + "', "
                + options
                + ")");
        return SINK;
      }
      default -> throw new AssertionError(connector);
    }
  }
}
