package dev.mortar.serde;

import java.io.IOException;
import javax.annotation.Nullable;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.core.memory.MemorySegmentFactory;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.types.logical.RowType;

/**
 * Reads the rows of {@link MortarRowBatch}es as views over the batch's own array: the row, its key,
 * partition path and payload are one set of objects, re-pointed at each record, and no byte is
 * copied. A row is valid until the next call of {@link #next()} and as long as the batch is
 * unchanged. One reader per thread.
 */
public final class MortarRowBatchReader {
  private final DataInputDeserializer in = new DataInputDeserializer();
  private final MemorySegment[] segments = {MemorySegmentFactory.wrap(new byte[0])};
  private final BinaryStringData key = new BinaryStringData(segments, 0, 0);
  private final BinaryStringData partitionPath = new BinaryStringData(segments, 0, 0);
  private final BinaryRowData payload;
  private final MortarRow row = new MortarRow();
  private int remaining;

  /** A reader of batches whose rows carry payloads of {@code payloadType}. */
  public MortarRowBatchReader(RowType payloadType) {
    this.payload = new BinaryRowData(payloadType.getFieldCount());
  }

  /** Takes the rows of a batch one at a time. */
  @FunctionalInterface
  public interface RowAction<E extends Exception> {
    void accept(MortarRow row) throws IOException, E;
  }

  /**
   * Hands every row of {@code batch} to {@code action}, in order, and then recycles the batch
   * ({@link MortarRowBatch#recycle()}): {@code action} must be done with each row when it returns,
   * as the next batch the serializer reads overwrites them. How a receiver drains what the shuffle
   * delivers.
   */
  public <E extends Exception> void forEachRowThenRecycle(MortarRowBatch batch, RowAction<E> action)
      throws IOException, E {
    reset(batch);
    for (MortarRow row = next(); row != null; row = next()) {
      action.accept(row);
    }
    batch.recycle();
  }

  /**
   * Starts reading {@code batch} from its first row.
   *
   * @throws IllegalStateException when the batch was recycled: its serializer may refill it
   */
  public void reset(MortarRowBatch batch) {
    batch.checkNotRecycled();
    segments[0] = batch.segment();
    in.setBuffer(batch.array(), 0, batch.sizeInBytes());
    remaining = batch.rowCount();
  }

  /**
   * The next row of the batch, or {@code null} after the last.
   *
   * @throws IOException when the batch's bytes do not hold its row count of well-formed records
   */
  @Nullable
  public MortarRow next() throws IOException {
    if (remaining == 0) {
      if (in.available() > 0) {
        throw new IOException(
            "corrupt MortarRowBatch: " + in.available() + " bytes after its last row");
      }
      return null;
    }
    int header = MortarRowWireFormat.readHeader(in);
    int bucket = MortarRowWireFormat.readVarInt(in);
    int keySize = MortarRowWireFormat.readLength(in, "record key");
    int partitionSize = MortarRowWireFormat.readPartitionLength(in, header);
    int payloadSize = MortarRowWireFormat.readPayloadLength(in, header);
    long bodySize = (long) keySize + partitionSize + Math.max(payloadSize, 0);
    if (bodySize > in.available()) {
      throw new IOException(
          "corrupt MortarRowBatch: a row of "
              + bodySize
              + " bytes with "
              + in.available()
              + " bytes and "
              + remaining
              + " rows left in the batch");
    }
    int keyOffset = in.getPosition();
    in.skipBytesToRead((int) bodySize);
    remaining--;
    pointAt(key, keyOffset, keySize);
    pointAt(partitionPath, keyOffset + keySize, partitionSize);
    row.setRecordKey(key);
    row.setPartitionPath(partitionPath);
    row.setBucket(bucket);
    row.setOperation(MortarRowWireFormat.operationOf(header));
    if (payloadSize < 0) {
      row.setPayload(null);
    } else {
      payload.pointTo(segments, keyOffset + keySize + partitionSize, payloadSize);
      row.setPayload(payload);
    }
    return row;
  }

  private void pointAt(BinaryStringData view, int offset, int size) {
    view.setJavaObject(null);
    view.getBinarySection().pointTo(segments, offset, size);
  }
}
