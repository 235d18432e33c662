package dev.mortar.benchmark.e2e;

import dev.mortar.benchmark.workload.WorkloadSchema;
import java.util.ArrayList;
import java.util.List;

/**
 * The rows one benchmark run generates, as Flink SQL: a bounded DataGen source table and a view
 * {@code workload} whose columns are exactly the sink's columns.
 *
 * <ul>
 *   <li>{@code schema1}..{@code schema4}: the workload of shared/spec/benchmark-workload.md (the
 *       Paimon cluster benchmark's q1 and the 20 / 50 / 100 string-column schemas).
 *   <li>{@code size<bytes>} (e.g. {@code size1024}): the record-size sweep, {@code item_id} plus
 *       one random hex string so that a row holds about {@code bytes} logical bytes.
 * </ul>
 *
 * Keys are uniform in [0, 100,000,000) in every workload.
 */
public final class Workload {
  private static final String SOURCE = "workload_source";
  private static final String KEY_OPTIONS =
      "'fields.item_id.kind' = 'random', 'fields.item_id.min' = '0', 'fields.item_id.max' = '"
          + (WorkloadSchema.KEY_SPACE - 1)
          + "'";

  private final String name;
  private final String sinkColumns;
  private final String sourceColumns;
  private final String fieldOptions;
  private final String viewQuery;
  private final double logicalBytesPerRow;

  private Workload(
      String name,
      String sinkColumns,
      String sourceColumns,
      String fieldOptions,
      String viewQuery,
      double logicalBytesPerRow) {
    this.name = name;
    this.sinkColumns = sinkColumns;
    this.sourceColumns = sourceColumns;
    this.fieldOptions = fieldOptions;
    this.viewQuery = viewQuery;
    this.logicalBytesPerRow = logicalBytesPerRow;
  }

  /** Parses {@code schema1}..{@code schema4} (or {@code 1}..{@code 4}) and {@code size<bytes>}. */
  public static Workload parse(String text) {
    String lower = text.toLowerCase();
    if (lower.startsWith("size")) {
      return sized(Integer.parseInt(lower.substring("size".length())));
    }
    return of(WorkloadSchema.parse(lower));
  }

  /** One of the four schemas of the workload file. */
  public static Workload of(WorkloadSchema schema) {
    String name = schema.name().toLowerCase();
    if (schema == WorkloadSchema.SCHEMA1) {
      List<String> counters = new ArrayList<>();
      StringBuilder options = new StringBuilder(KEY_OPTIONS);
      for (var field : schema.rowType().getFields().subList(2, 10)) {
        counters.add('`' + field.getName() + '`');
        options
            .append(", 'fields.")
            .append(field.getName())
            .append(".min' = '0', 'fields.")
            .append(field.getName())
            .append(".max' = '999999999'");
      }
      String counterList = String.join(", ", counters);
      String sourceColumns =
          "`item_id` BIGINT NOT NULL, `item_name` STRING, "
              + String.join(" BIGINT, ", counters)
              + " BIGINT";
      // As q1.sql: the 100-character random string cut to 64..95 characters, and a timestamp.
      String view =
          "SELECT `item_id`, SUBSTR(`item_name`, 1, CAST(MOD(`item_id`, 32) + 64 AS INT)) AS"
              + " `item_name`, "
              + counterList
              + ", CAST(NOW() AS TIMESTAMP(3)) AS `ts` FROM "
              + SOURCE;
      // 8 (key) + 79.5 (name, mean of 64..95 characters) + 8 * 8 (counters) + 8 (ts).
      return new Workload(
          name, schema.sqlColumns(), sourceColumns, options.toString(), view, 159.5);
    }
    int strings = schema.rowType().getFieldCount() - 1;
    return new Workload(
        name,
        schema.sqlColumns(),
        schema.sqlColumns(),
        KEY_OPTIONS,
        "SELECT * FROM " + SOURCE,
        8 + 100.0 * strings);
  }

  /** The record-size sweep: {@code item_id} plus one random hex string of {@code bytes - 8}. */
  public static Workload sized(int bytes) {
    if (bytes < 16) {
      throw new IllegalArgumentException(
          "record size " + bytes + " B is too small: the sweep needs at least 16 B (8 B key)");
    }
    String columns = "`item_id` BIGINT NOT NULL, `payload` STRING";
    String options = KEY_OPTIONS + ", 'fields.payload.length' = '" + (bytes - 8) + "'";
    return new Workload(
        "size" + bytes, columns, columns, options, "SELECT * FROM " + SOURCE, bytes);
  }

  /** The name used in flags, file names and reports ({@code schema1}, {@code size1024}). */
  public String name() {
    return name;
  }

  /** The sink's column list (Flink SQL); the first column {@code item_id} is the primary key. */
  public String sinkColumns() {
    return sinkColumns;
  }

  /** Mean logical (uncompressed) bytes of one row, for MB/s. */
  public double logicalBytesPerRow() {
    return logicalBytesPerRow;
  }

  /**
   * The statements that create the bounded source and the view {@code workload}, which emits
   * exactly {@code rows} rows at the source's full speed.
   */
  public List<String> sourceStatements(long rows) {
    return List.of(
        "CREATE TEMPORARY TABLE "
            + SOURCE
            + " ("
            + sourceColumns
            + ") WITH ('connector' = 'datagen', 'rows-per-second' = '999999999',"
            + " 'number-of-rows' = '"
            + rows
            + "', "
            + fieldOptions
            + ")",
        "CREATE TEMPORARY VIEW workload AS " + viewQuery);
  }

  @Override
  public String toString() {
    return name;
  }
}
