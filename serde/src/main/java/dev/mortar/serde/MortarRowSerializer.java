package dev.mortar.serde;

import java.io.IOException;
import javax.annotation.Nullable;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.core.memory.MemorySegmentFactory;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinarySegmentUtils;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.types.logical.RowType;

/**
 * Serializes {@link MortarRow} in the layout of {@link MortarRowWireFormat}, for the network
 * shuffle and for Flink state. Stateless, so {@link #duplicate()} returns itself.
 *
 * <p>Payload bytes go out straight from the row's memory segments and come back into one byte
 * array; deserializing into a reuse instance overwrites the array its payload already owns when it
 * is large enough (the same contract as Flink's {@code BinaryRowDataSerializer}: whoever passes a
 * reuse instance hands over its payload bytes). Key and partition strings are always fresh, so they
 * can be kept as map keys.
 */
public final class MortarRowSerializer extends TypeSerializer<MortarRow> {
  private static final long serialVersionUID = 1L;

  private final RowType payloadType;
  private final int payloadArity;

  public MortarRowSerializer(RowType payloadType) {
    this.payloadType = payloadType;
    this.payloadArity = payloadType.getFieldCount();
  }

  public RowType getPayloadType() {
    return payloadType;
  }

  @Override
  public boolean isImmutableType() {
    return false;
  }

  @Override
  public TypeSerializer<MortarRow> duplicate() {
    return this;
  }

  @Override
  public MortarRow createInstance() {
    return new MortarRow();
  }

  @Override
  public MortarRow copy(MortarRow from) {
    return copy(from, new MortarRow());
  }

  @Override
  public MortarRow copy(MortarRow from, MortarRow reuse) {
    reuse.setRecordKey(from.getRecordKey().copy());
    reuse.setPartitionPath(copyPartition(from.getPartitionPath()));
    reuse.setBucket(from.getBucket());
    reuse.setOperation(from.getOperation());
    BinaryRowData payload = from.getPayload();
    if (payload == null) {
      reuse.setPayload(null);
    } else {
      int size = payload.getSizeInBytes();
      BinaryRowData target = payloadHolder(reuse.getPayload(), size);
      BinarySegmentUtils.copyToBytes(
          payload.getSegments(), payload.getOffset(), target.getSegments()[0].getArray(), 0, size);
      target.setTotalSize(size);
      reuse.setPayload(target);
    }
    return reuse;
  }

  @Override
  public int getLength() {
    return -1;
  }

  @Override
  public void serialize(MortarRow row, DataOutputView out) throws IOException {
    BinaryStringData key = row.getRecordKey();
    BinaryStringData partition = row.getPartitionPath();
    BinaryRowData payload = row.getPayload();
    key.ensureMaterialized();
    partition.ensureMaterialized();
    boolean hasPartition = partition.getSizeInBytes() > 0;
    if (payload != null && payload.getArity() != payloadArity) {
      throw new IllegalArgumentException(
          "MortarRow payload has "
              + payload.getArity()
              + " fields but this serializer is built for "
              + payloadArity
              + " ("
              + payloadType
              + ")");
    }
    out.writeByte(MortarRowWireFormat.header(row.getOperation(), hasPartition, payload != null));
    MortarRowWireFormat.writeVarInt(out, row.getBucket());
    writeString(key, out);
    if (hasPartition) {
      writeString(partition, out);
    }
    if (payload != null) {
      int size = payload.getSizeInBytes();
      MortarRowWireFormat.writeVarInt(out, size);
      BinarySegmentUtils.copyToView(payload.getSegments(), payload.getOffset(), size, out);
    }
  }

  @Override
  public MortarRow deserialize(DataInputView in) throws IOException {
    return deserialize(new MortarRow(), in);
  }

  @Override
  public MortarRow deserialize(MortarRow reuse, DataInputView in) throws IOException {
    int header = MortarRowWireFormat.readHeader(in);
    reuse.setOperation(MortarRowWireFormat.operationOf(header));
    reuse.setBucket(MortarRowWireFormat.readVarInt(in));
    reuse.setRecordKey(readString(in, "record key"));
    reuse.setPartitionPath(
        MortarRowWireFormat.hasPartition(header)
            ? readString(in, "partition path")
            : BinaryStringData.EMPTY_UTF8);
    if (MortarRowWireFormat.hasPayload(header)) {
      int size = MortarRowWireFormat.readLength(in, "payload");
      BinaryRowData payload = payloadHolder(reuse.getPayload(), size);
      in.readFully(payload.getSegments()[0].getArray(), 0, size);
      payload.setTotalSize(size);
      reuse.setPayload(payload);
    } else {
      reuse.setPayload(null);
    }
    return reuse;
  }

  @Override
  public void copy(DataInputView source, DataOutputView target) throws IOException {
    int header = MortarRowWireFormat.readHeader(source);
    target.writeByte(header);
    MortarRowWireFormat.copyVarInt(source, target);
    copyBytes(source, target, "record key");
    if (MortarRowWireFormat.hasPartition(header)) {
      copyBytes(source, target, "partition path");
    }
    if (MortarRowWireFormat.hasPayload(header)) {
      copyBytes(source, target, "payload");
    }
  }

  @Override
  public TypeSerializerSnapshot<MortarRow> snapshotConfiguration() {
    return new MortarRowSerializerSnapshot(payloadType);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof MortarRowSerializer
        && payloadType.equals(((MortarRowSerializer) o).payloadType);
  }

  @Override
  public int hashCode() {
    return payloadType.hashCode();
  }

  private static BinaryStringData copyPartition(BinaryStringData partition) {
    partition.ensureMaterialized();
    return partition.getSizeInBytes() == 0 ? BinaryStringData.EMPTY_UTF8 : partition.copy();
  }

  private static void writeString(BinaryStringData string, DataOutputView out) throws IOException {
    int size = string.getSizeInBytes();
    MortarRowWireFormat.writeVarInt(out, size);
    BinarySegmentUtils.copyToView(string.getSegments(), string.getOffset(), size, out);
  }

  private static BinaryStringData readString(DataInputView in, String what) throws IOException {
    int size = MortarRowWireFormat.readLength(in, what);
    if (size == 0) {
      return BinaryStringData.EMPTY_UTF8;
    }
    byte[] bytes = new byte[size];
    in.readFully(bytes);
    return BinaryStringData.fromBytes(bytes);
  }

  private static void copyBytes(DataInputView source, DataOutputView target, String what)
      throws IOException {
    int size = MortarRowWireFormat.readLength(source, what);
    MortarRowWireFormat.writeVarInt(target, size);
    target.write(source, size);
  }

  /**
   * A payload row whose single heap segment at offset 0 holds at least {@code size} bytes: {@code
   * reuse} itself when it qualifies, else a new row over a new array.
   */
  private BinaryRowData payloadHolder(@Nullable BinaryRowData reuse, int size) {
    if (reuse != null && reuse.getArity() == payloadArity && reuse.getOffset() == 0) {
      MemorySegment[] segments = reuse.getSegments();
      if (segments != null
          && segments.length == 1
          && !segments[0].isOffHeap()
          && segments[0].size() >= size) {
        return reuse;
      }
    }
    BinaryRowData row = new BinaryRowData(payloadArity);
    row.pointTo(MemorySegmentFactory.wrap(new byte[size]), 0, size);
    return row;
  }
}
