package dev.mortar.logformat.read;

import dev.mortar.logformat.AvroSchemas;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;

/**
 * The row type of a record as a log or base file stores it: Hudi's five meta fields (nullable
 * strings, shared/spec/hudi-format.md §10) followed by the table's data columns. Readers in this
 * package give rows of this type; {@link #META_FIELD_COUNT} is the position of the first data
 * column.
 */
public final class StoredRowType {
  public static final int META_FIELD_COUNT = AvroSchemas.META_FIELDS.size();
  public static final int COMMIT_TIME = 0;
  public static final int COMMIT_SEQNO = 1;
  public static final int RECORD_KEY = 2;
  public static final int PARTITION_PATH = 3;
  public static final int FILE_NAME = 4;

  private StoredRowType() {}

  /** The stored row type of a table whose data columns are {@code dataType}. */
  public static RowType of(RowType dataType) {
    List<RowType.RowField> fields = new ArrayList<>();
    LogicalType metaType = new VarCharType(true, VarCharType.MAX_LENGTH);
    for (String name : AvroSchemas.META_FIELDS) {
      fields.add(new RowType.RowField(name, metaType));
    }
    fields.addAll(dataType.getFields());
    return new RowType(dataType.isNullable(), fields);
  }
}
