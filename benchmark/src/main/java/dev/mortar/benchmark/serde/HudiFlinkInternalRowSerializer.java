package dev.mortar.benchmark.serde;

import java.io.IOException;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.runtime.typeutils.StringDataSerializer;
import org.apache.flink.table.types.logical.RowType;

/**
 * Hudi 1.1's {@code HoodieFlinkInternalRowSerializer} wire layout re-implemented from
 * shared/spec/hudi-format.md §12.1: a boolean, five {@link StringDataSerializer} strings (4-byte
 * length + UTF-8: key, partition, file id, instant, operation) and, unless it is an index record,
 * the row through {@link RowDataSerializer} (4-byte length + binary row). As in Hudi, instances,
 * copies and snapshots are unsupported: it only serves the benchmark's round trip.
 */
final class HudiFlinkInternalRowSerializer extends TypeSerializer<HudiFlinkInternalRow> {
  private static final long serialVersionUID = 1L;
  private static final StringDataSerializer STRINGS = StringDataSerializer.INSTANCE;

  private final RowType rowType;
  private final RowDataSerializer rowSerializer;

  HudiFlinkInternalRowSerializer(RowType rowType) {
    this.rowType = rowType;
    this.rowSerializer = new RowDataSerializer(rowType);
  }

  @Override
  public void serialize(HudiFlinkInternalRow row, DataOutputView out) throws IOException {
    out.writeBoolean(row.isIndexRecord);
    STRINGS.serialize(row.recordKey, out);
    STRINGS.serialize(row.partitionPath, out);
    STRINGS.serialize(row.fileId, out);
    STRINGS.serialize(row.instantTime, out);
    STRINGS.serialize(row.operationType, out);
    if (!row.isIndexRecord) {
      rowSerializer.serialize(row.rowData, out);
    }
  }

  @Override
  public HudiFlinkInternalRow deserialize(DataInputView in) throws IOException {
    boolean isIndexRecord = in.readBoolean();
    return new HudiFlinkInternalRow(
        isIndexRecord,
        STRINGS.deserialize(in),
        STRINGS.deserialize(in),
        STRINGS.deserialize(in),
        STRINGS.deserialize(in),
        STRINGS.deserialize(in),
        isIndexRecord ? null : rowSerializer.deserialize(in));
  }

  @Override
  public HudiFlinkInternalRow deserialize(HudiFlinkInternalRow reuse, DataInputView in)
      throws IOException {
    return deserialize(in);
  }

  @Override
  public void copy(DataInputView source, DataOutputView target) throws IOException {
    serialize(deserialize(source), target);
  }

  @Override
  public boolean isImmutableType() {
    return false;
  }

  @Override
  public TypeSerializer<HudiFlinkInternalRow> duplicate() {
    return new HudiFlinkInternalRowSerializer(rowType);
  }

  @Override
  public HudiFlinkInternalRow createInstance() {
    throw new UnsupportedOperationException("as in Hudi 1.1");
  }

  @Override
  public HudiFlinkInternalRow copy(HudiFlinkInternalRow from) {
    throw new UnsupportedOperationException("as in Hudi 1.1");
  }

  @Override
  public HudiFlinkInternalRow copy(HudiFlinkInternalRow from, HudiFlinkInternalRow reuse) {
    throw new UnsupportedOperationException("as in Hudi 1.1");
  }

  @Override
  public int getLength() {
    return -1;
  }

  @Override
  public TypeSerializerSnapshot<HudiFlinkInternalRow> snapshotConfiguration() {
    throw new UnsupportedOperationException("as in Hudi 1.1: not usable as state");
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof HudiFlinkInternalRowSerializer
        && rowType.equals(((HudiFlinkInternalRowSerializer) o).rowType);
  }

  @Override
  public int hashCode() {
    return rowType.hashCode();
  }
}
