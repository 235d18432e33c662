package dev.mortar.benchmark.serde;

import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TinyIntType;
import org.apache.flink.table.types.logical.VarCharType;

/**
 * The shuffle metadata carried as four extra leading columns of the row (key, partition path,
 * bucket, operation code): how the baselines without a row class of their own ship it.
 */
final class MetaColumns {
  static final int COUNT = 4;

  private MetaColumns() {}

  /** {@code payloadType} with the four metadata columns in front. */
  static RowType rowType(RowType payloadType) {
    List<RowType.RowField> fields = new ArrayList<>();
    fields.add(field("_record_key", new VarCharType(false, VarCharType.MAX_LENGTH)));
    fields.add(field("_partition_path", new VarCharType(false, VarCharType.MAX_LENGTH)));
    fields.add(field("_bucket", new IntType(false)));
    fields.add(field("_operation", new TinyIntType(false)));
    fields.addAll(payloadType.getFields());
    return new RowType(fields);
  }

  /** The input's metadata and row values as one row of {@link #rowType}. */
  static GenericRowData row(ShuffleInput input) {
    GenericRowData row = new GenericRowData(COUNT + input.row().getArity());
    GenericRowData metadata = metadata(input);
    for (int i = 0; i < COUNT; i++) {
      row.setField(i, metadata.getField(i));
    }
    for (int i = 0; i < input.row().getArity(); i++) {
      row.setField(COUNT + i, input.row().getField(i));
    }
    return row;
  }

  /** The four metadata columns alone. */
  static GenericRowData metadata(ShuffleInput input) {
    GenericRowData metadata = new GenericRowData(COUNT);
    metadata.setField(0, StringData.fromString(input.recordKey()));
    metadata.setField(1, StringData.fromString(input.partitionPath()));
    metadata.setField(2, input.bucket());
    metadata.setField(3, input.operation().code());
    return metadata;
  }

  private static RowType.RowField field(String name, LogicalType type) {
    return new RowType.RowField(name, type);
  }
}
