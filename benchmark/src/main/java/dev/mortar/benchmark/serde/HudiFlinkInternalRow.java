package dev.mortar.benchmark.serde;

import java.util.Objects;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;

/**
 * Hudi 1.1's shuffle record ({@code HoodieFlinkInternalRow}, RFC-84, shared/spec/hudi-format.md
 * §12.1) re-implemented for the serde benchmark: an index-record flag, five strings and the row.
 */
final class HudiFlinkInternalRow {
  final boolean isIndexRecord;
  final StringData recordKey;
  final StringData partitionPath;
  final StringData fileId;
  final StringData instantTime;
  final StringData operationType;
  final RowData rowData;

  HudiFlinkInternalRow(
      boolean isIndexRecord,
      StringData recordKey,
      StringData partitionPath,
      StringData fileId,
      StringData instantTime,
      StringData operationType,
      RowData rowData) {
    this.isIndexRecord = isIndexRecord;
    this.recordKey = recordKey;
    this.partitionPath = partitionPath;
    this.fileId = fileId;
    this.instantTime = instantTime;
    this.operationType = operationType;
    this.rowData = rowData;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof HudiFlinkInternalRow)) {
      return false;
    }
    HudiFlinkInternalRow that = (HudiFlinkInternalRow) o;
    return isIndexRecord == that.isIndexRecord
        && recordKey.equals(that.recordKey)
        && partitionPath.equals(that.partitionPath)
        && fileId.equals(that.fileId)
        && instantTime.equals(that.instantTime)
        && operationType.equals(that.operationType)
        && Objects.equals(rowData, that.rowData);
  }

  @Override
  public int hashCode() {
    return Objects.hash(recordKey, partitionPath, fileId, instantTime, operationType);
  }

  @Override
  public String toString() {
    return "HudiFlinkInternalRow{" + recordKey + ", " + fileId + ", " + operationType + '}';
  }
}
