package dev.mortar.benchmark.e2e;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;
import org.apache.flink.table.api.TableEnvironment;

/**
 * The sinks the benchmark compares, each as the Flink SQL table the workload is inserted into.
 *
 * <ul>
 *   <li>{@link #BLACKHOLE}: Flink's blackhole connector, the source's own limit.
 *   <li>{@link #MORTAR_AVRO}, {@link #MORTAR_PARQUET}: Mortar's {@code 'connector' = 'mortar'} with
 *       Avro or Parquet log blocks, {@code buckets} file groups.
 *   <li>{@link #MORTAR_AVRO_NO_META}: Mortar with Avro blocks and {@code
 *       'hoodie.populate.meta.fields' = 'false'} (records without Hudi's five meta fields; not in
 *       the default systems).
 *   <li>{@link #MORTAR_AVRO_OFF_HEAP}: Mortar with Avro blocks and {@code 'buffer.off-heap' =
 *       'true'} (buffer pages outside the Java heap; not in the default systems).
 *   <li>{@link #PAIMON}: Apache Paimon's primary-key table with fixed buckets, {@code write-only},
 *       snappy and {@code write-buffer-spillable = false}: the options of the Hudi 1.1 vs Paimon
 *       comparison ("as the blog ran it" in shared/spec/benchmark-workload.md).
 * </ul>
 *
 * Mortar and Paimon write to a fresh directory on local disk per job.
 */
public enum SystemUnderTest {
  BLACKHOLE(null),
  MORTAR_AVRO("'log.block.format' = 'avro'"),
  MORTAR_PARQUET("'log.block.format' = 'parquet'"),
  MORTAR_AVRO_NO_META(
      "'log.block.format' = 'avro', 'hoodie.populate.meta.fields' = 'false',"
          + " 'compaction.schedule.enabled' = 'false'"),
  MORTAR_AVRO_OFF_HEAP("'log.block.format' = 'avro', 'buffer.off-heap' = 'true'"),
  PAIMON(null);

  private static final String SINK = "workload_sink";

  /**
   * A Mortar system's table options besides path and buckets; null for the other sinks (so a new
   * Mortar system is one constant, with nothing to add to {@link #createSink}).
   */
  private final String mortarOptions;

  SystemUnderTest(String mortarOptions) {
    this.mortarOptions = mortarOptions;
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
    return this != BLACKHOLE;
  }

  /**
   * Creates the sink table in {@code env} and returns the identifier to insert into.
   *
   * @param tableDir a fresh directory the sink may write its table into
   * @param buckets fixed buckets (file groups) of the table
   */
  public String createSink(TableEnvironment env, Workload workload, Path tableDir, int buckets) {
    String columns = workload.sinkColumns() + ", PRIMARY KEY (`item_id`) NOT ENFORCED";
    if (mortarOptions != null) {
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
              + mortarOptions
              + ")");
      return SINK;
    }
    switch (this) {
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
                + "', 'write-only' = 'true', 'file.compression' = 'snappy',"
                + " 'write-buffer-spillable' = 'false')");
        return table;
      }
      default -> throw new AssertionError(this);
    }
  }
}
