package dev.mortar.benchmark.logformat;

import dev.mortar.benchmark.workload.WorkloadSchema;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinaryStringData;

/**
 * The records of one log block: workload rows as {@link BinaryRowData} (what the buffer hands to
 * the log writer) and their record keys ({@code item_id} as text), plus the file-group context of
 * the meta fields.
 */
public final class BlockInput {
  public static final String INSTANT = "20261122120000123";
  public static final String WRITE_TOKEN = "0-1-0";
  public static final String PARTITION = "";
  public static final String FILE_ID = "00000000-6f1c-4d4e-9a2b-5c3d2e1f0a9b";

  /** The sequence number of a record without its counter: {@code <instant>_<task partition>_}. */
  public static final String SEQNO_PREFIX =
      INSTANT + "_" + WRITE_TOKEN.substring(0, WRITE_TOKEN.indexOf('-')) + "_";

  public final WorkloadSchema schema;
  public final List<BinaryRowData> rows;
  public final List<BinaryStringData> keys;

  private BlockInput(WorkloadSchema schema, List<BinaryRowData> rows, List<BinaryStringData> keys) {
    this.schema = schema;
    this.rows = rows;
    this.keys = keys;
  }

  /**
   * The five meta field values Mortar writes for the record with {@code key} that is number {@code
   * counter} of its block, in {@code AvroSchemas.META_FIELDS} order.
   */
  public static String[] metaFieldValues(BinaryStringData key, int counter) {
    return new String[] {INSTANT, SEQNO_PREFIX + counter, key.toString(), PARTITION, FILE_ID};
  }

  public static BlockInput generate(WorkloadSchema schema, int records, long seed) {
    WorkloadSchema.RowGenerator generator = schema.generator(seed);
    List<BinaryRowData> rows = new ArrayList<>(records);
    List<BinaryStringData> keys = new ArrayList<>(records);
    for (int i = 0; i < records; i++) {
      BinaryRowData row = generator.next();
      rows.add(row);
      keys.add(BinaryStringData.fromString(Long.toString(row.getLong(0))));
    }
    return new BlockInput(schema, rows, keys);
  }
}
