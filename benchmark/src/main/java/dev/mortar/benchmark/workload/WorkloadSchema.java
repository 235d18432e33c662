package dev.mortar.benchmark.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.VarCharType;

/**
 * The rows of the DataGen upsert workload (shared/spec/benchmark-workload.md), for micro-benchmarks
 * that need realistic {@link BinaryRowData} without running a Flink job.
 *
 * <ul>
 *   <li>{@link #SCHEMA1}: {@code item_id BIGINT} (the key), {@code item_name STRING} of 64–95 hex
 *       characters, 8 BIGINT counters, {@code ts TIMESTAMP(3)}: about 160 logical bytes.
 *   <li>{@link #SCHEMA2}, {@link #SCHEMA3}, {@link #SCHEMA4}: {@code item_id BIGINT} plus 20 / 50 /
 *       100 STRING columns of 100 random hex characters: about 2 / 5 / 10 KB.
 * </ul>
 *
 * Keys are uniform in [0, 100,000,000) like the DataGen source. Field 0 is always the key.
 */
public enum WorkloadSchema {
  SCHEMA1(-1),
  SCHEMA2(20),
  SCHEMA3(50),
  SCHEMA4(100);

  /** Upper bound (exclusive) of {@code item_id}. */
  public static final long KEY_SPACE = 100_000_000L;

  private static final char[] HEX = "0123456789abcdef".toCharArray();
  private static final String[] COUNTERS = {
    "item_click_uv_1d",
    "item_click_pv_1d",
    "item_like_uv_1d",
    "item_like_pv_1d",
    "item_cart_uv_1d",
    "item_cart_pv_1d",
    "item_share_uv_1d",
    "item_share_pv_1d"
  };

  private final int stringColumns;

  WorkloadSchema(int stringColumns) {
    this.stringColumns = stringColumns;
  }

  /** Parses "1".."4" or "schema1".."schema4" (any case). */
  public static WorkloadSchema parse(String text) {
    String digits = text.toLowerCase().replace("schema", "");
    for (WorkloadSchema schema : values()) {
      if (schema.name().endsWith(digits)) {
        return schema;
      }
    }
    throw new IllegalArgumentException(
        "unknown workload schema '" + text + "': expected one of 1, 2, 3, 4 (or schema1..schema4)");
  }

  /** The sink table's row type; field 0 is the record key {@code item_id}. */
  public RowType rowType() {
    List<RowType.RowField> fields = new ArrayList<>();
    fields.add(new RowType.RowField("item_id", new BigIntType(false)));
    if (this == SCHEMA1) {
      fields.add(new RowType.RowField("item_name", VarCharType.STRING_TYPE));
      for (String counter : COUNTERS) {
        fields.add(new RowType.RowField(counter, new BigIntType()));
      }
      fields.add(new RowType.RowField("ts", new TimestampType(3)));
    } else {
      for (int i = 0; i < stringColumns; i++) {
        fields.add(new RowType.RowField("f_" + i, VarCharType.STRING_TYPE));
      }
    }
    return new RowType(fields);
  }

  /** Flink SQL column list of {@link #rowType()}, e.g. {@code item_id BIGINT NOT NULL, ...}. */
  public String sqlColumns() {
    StringBuilder sql = new StringBuilder();
    for (RowType.RowField field : rowType().getFields()) {
      LogicalType type = field.getType();
      if (sql.length() > 0) {
        sql.append(", ");
      }
      sql.append('`').append(field.getName()).append("` ").append(type.asSerializableString());
    }
    return sql.toString();
  }

  /** A new generator of rows of this schema, reproducible from {@code seed}. */
  public RowGenerator generator(long seed) {
    return new RowGenerator(this, seed);
  }

  /**
   * Produces rows of one schema as {@link BinaryRowData}, reproducible from a seed. Not
   * thread-safe; each call to {@link #next()} returns a fresh row.
   */
  public static final class RowGenerator {
    private final WorkloadSchema schema;
    private final SplittableRandom random;
    private final RowDataSerializer serializer;
    private final char[] chars = new char[100];

    private RowGenerator(WorkloadSchema schema, long seed) {
      this.schema = schema;
      this.random = new SplittableRandom(seed);
      this.serializer = new RowDataSerializer(schema.rowType());
    }

    /** The next row, as an independent {@link BinaryRowData}. */
    public BinaryRowData next() {
      return serializer.toBinaryRow(nextGeneric()).copy();
    }

    /** The next row as a {@link GenericRowData} (for baselines that start from objects). */
    public GenericRowData nextGeneric() {
      long key = random.nextLong(KEY_SPACE);
      GenericRowData row;
      if (schema == SCHEMA1) {
        row = new GenericRowData(11);
        row.setField(0, key);
        row.setField(1, hex(64 + (int) (key % 32)));
        for (int i = 0; i < COUNTERS.length; i++) {
          row.setField(2 + i, random.nextLong(1_000_000_000L));
        }
        row.setField(10, TimestampData.fromEpochMillis(System.currentTimeMillis()));
      } else {
        row = new GenericRowData(1 + schema.stringColumns);
        row.setField(0, key);
        for (int i = 0; i < schema.stringColumns; i++) {
          row.setField(1 + i, hex(100));
        }
      }
      return row;
    }

    private StringData hex(int length) {
      for (int i = 0; i < length; i++) {
        chars[i] = HEX[random.nextInt(16)];
      }
      return StringData.fromString(new String(chars, 0, length));
    }
  }
}
