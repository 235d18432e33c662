package dev.mortar.serde;

import java.util.Objects;
import javax.annotation.Nullable;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinaryStringData;

/**
 * The record the writer shuffles between its operators: the record key, the partition path, the
 * bucket the key hashes to, the operation, and the row itself as {@link BinaryRowData}.
 *
 * <p>Mutable and reusable, like Flink's own rows: {@link MortarRowSerializer} deserializes into an
 * existing instance and overwrites its payload bytes in place when they fit. The key and the
 * partition path are never null (a non-partitioned table uses the empty string); the payload may be
 * null (a delete that carries only its key).
 */
public final class MortarRow {
  private BinaryStringData recordKey;
  private BinaryStringData partitionPath;
  private int bucket;
  private Operation operation;
  @Nullable private BinaryRowData payload;

  /** An INSERT with an empty key, empty partition path, bucket 0 and no payload. */
  public MortarRow() {
    this(BinaryStringData.EMPTY_UTF8, BinaryStringData.EMPTY_UTF8, 0, Operation.INSERT, null);
  }

  public MortarRow(
      BinaryStringData recordKey,
      BinaryStringData partitionPath,
      int bucket,
      Operation operation,
      @Nullable BinaryRowData payload) {
    setRecordKey(recordKey);
    setPartitionPath(partitionPath);
    setBucket(bucket);
    setOperation(operation);
    setPayload(payload);
  }

  public BinaryStringData getRecordKey() {
    return recordKey;
  }

  public void setRecordKey(BinaryStringData recordKey) {
    this.recordKey = Objects.requireNonNull(recordKey, "recordKey");
  }

  public BinaryStringData getPartitionPath() {
    return partitionPath;
  }

  /** The partition path; the empty string for a non-partitioned table, never null. */
  public void setPartitionPath(BinaryStringData partitionPath) {
    this.partitionPath = Objects.requireNonNull(partitionPath, "partitionPath (use \"\" for none)");
  }

  public int getBucket() {
    return bucket;
  }

  public void setBucket(int bucket) {
    this.bucket = bucket;
  }

  public Operation getOperation() {
    return operation;
  }

  public void setOperation(Operation operation) {
    this.operation = Objects.requireNonNull(operation, "operation");
  }

  @Nullable
  public BinaryRowData getPayload() {
    return payload;
  }

  public void setPayload(@Nullable BinaryRowData payload) {
    this.payload = payload;
  }

  @Override
  public boolean equals(Object o) {
    if (this == o) {
      return true;
    }
    if (!(o instanceof MortarRow)) {
      return false;
    }
    MortarRow that = (MortarRow) o;
    return bucket == that.bucket
        && operation == that.operation
        && recordKey.equals(that.recordKey)
        && partitionPath.equals(that.partitionPath)
        && Objects.equals(payload, that.payload);
  }

  @Override
  public int hashCode() {
    return Objects.hash(recordKey, partitionPath, bucket, operation, payload);
  }

  @Override
  public String toString() {
    return "MortarRow{key="
        + recordKey
        + ", partition="
        + partitionPath
        + ", bucket="
        + bucket
        + ", "
        + operation
        + ", payload="
        + (payload == null
            ? "none"
            : payload.getArity() + " fields/" + payload.getSizeInBytes() + " B")
        + '}';
  }
}
