package dev.mortar.serde;

import java.io.IOException;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.core.memory.MemorySegmentFactory;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinarySection;
import org.apache.flink.table.data.binary.BinarySegmentUtils;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.types.logical.RowType;

/**
 * Serializes {@link MortarRow} in the layout of {@link MortarRowWireFormat}, for the network
 * shuffle and for Flink state. Stateless, so {@link #duplicate()} returns itself.
 *
 * <p>Key, partition path and payload go out straight from their memory segments and come back as
 * views over one byte array (the body of the record), read with one call. Deserializing or copying
 * into a reuse instance overwrites the array its payload already points into when that array is on
 * the heap and large enough; like Flink's {@code BinaryRowDataSerializer}, whoever passes a reuse
 * instance hands over its bytes, including those of the key and partition strings it held. Without
 * reuse every record gets its own array.
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
    BinarySection key = materialized(from.getRecordKey());
    BinarySection partition = materialized(from.getPartitionPath());
    BinaryRowData payload = from.getPayload();
    int keySize = key.getSizeInBytes();
    int partitionSize = partition.getSizeInBytes();
    int payloadSize = payload == null ? 0 : payload.getSizeInBytes();
    MemorySegment[] body = body(reuse, bodySize(keySize, partitionSize, payloadSize));
    byte[] bytes = body[0].getArray();
    BinarySegmentUtils.copyToBytes(key.getSegments(), key.getOffset(), bytes, 0, keySize);
    BinarySegmentUtils.copyToBytes(
        partition.getSegments(), partition.getOffset(), bytes, keySize, partitionSize);
    if (payload != null) {
      BinarySegmentUtils.copyToBytes(
          payload.getSegments(), payload.getOffset(), bytes, keySize + partitionSize, payloadSize);
    }
    reuse.setOperation(from.getOperation());
    reuse.setBucket(from.getBucket());
    return attach(reuse, body, keySize, partitionSize, payload == null ? -1 : payloadSize);
  }

  @Override
  public int getLength() {
    return -1;
  }

  @Override
  public void serialize(MortarRow row, DataOutputView out) throws IOException {
    BinarySection key = materialized(row.getRecordKey());
    BinarySection partition = materialized(row.getPartitionPath());
    BinaryRowData payload = row.getPayload();
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
    MortarRowWireFormat.writeVarInt(out, key.getSizeInBytes());
    if (hasPartition) {
      MortarRowWireFormat.writeVarInt(out, partition.getSizeInBytes());
    }
    if (payload != null) {
      MortarRowWireFormat.writeVarInt(out, payload.getSizeInBytes());
    }
    write(key.getSegments(), key.getOffset(), key.getSizeInBytes(), out);
    if (hasPartition) {
      write(partition.getSegments(), partition.getOffset(), partition.getSizeInBytes(), out);
    }
    if (payload != null) {
      write(payload.getSegments(), payload.getOffset(), payload.getSizeInBytes(), out);
    }
  }

  @Override
  public MortarRow deserialize(DataInputView in) throws IOException {
    return deserialize(new MortarRow(), in);
  }

  @Override
  public MortarRow deserialize(MortarRow reuse, DataInputView in) throws IOException {
    int header = MortarRowWireFormat.readHeader(in);
    int bucket = MortarRowWireFormat.readVarInt(in);
    int keySize = MortarRowWireFormat.readLength(in, "record key");
    int partitionSize = MortarRowWireFormat.readPartitionLength(in, header);
    int payloadSize = MortarRowWireFormat.readPayloadLength(in, header);
    int bodySize = bodySize(keySize, partitionSize, Math.max(payloadSize, 0));
    MemorySegment[] body = body(reuse, bodySize);
    in.readFully(body[0].getArray(), 0, bodySize);
    reuse.setOperation(MortarRowWireFormat.operationOf(header));
    reuse.setBucket(bucket);
    return attach(reuse, body, keySize, partitionSize, payloadSize);
  }

  @Override
  public void copy(DataInputView source, DataOutputView target) throws IOException {
    int header = MortarRowWireFormat.readHeader(source);
    target.writeByte(header);
    MortarRowWireFormat.writeVarInt(target, MortarRowWireFormat.readVarInt(source));
    long bodySize = copyLength(source, target, "record key");
    if (MortarRowWireFormat.hasPartition(header)) {
      bodySize += copyLength(source, target, "partition path");
    }
    if (MortarRowWireFormat.hasPayload(header)) {
      bodySize += copyLength(source, target, "payload");
    }
    target.write(source, bodySize(bodySize));
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

  /**
   * The bytes of {@code string}, encoded first if it is only a Java string. Its size, segments and
   * offset are then plain fields, where each {@code BinaryStringData} getter would check for a
   * Java-only string again on every call.
   */
  private static BinarySection materialized(BinaryStringData string) {
    string.ensureMaterialized();
    return string.getBinarySection();
  }

  /**
   * Writes {@code size} bytes at {@code offset} of {@code segments}. A range inside one heap
   * segment (the common case: rows and strings built on the heap) goes out with one array copy;
   * anything else through Flink's segment copy helper.
   */
  private static void write(MemorySegment[] segments, int offset, int size, DataOutputView out)
      throws IOException {
    MemorySegment first = segments[0];
    if (!first.isOffHeap() && offset + size <= first.size()) {
      out.write(first.getArray(), offset, size);
    } else {
      BinarySegmentUtils.copyToView(segments, offset, size, out);
    }
  }

  private static int copyLength(DataInputView source, DataOutputView target, String what)
      throws IOException {
    int size = MortarRowWireFormat.readLength(source, what);
    MortarRowWireFormat.writeVarInt(target, size);
    return size;
  }

  private static int bodySize(int keySize, int partitionSize, int payloadSize) {
    return bodySize((long) keySize + partitionSize + payloadSize);
  }

  private static int bodySize(long size) {
    if (size > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(
          "MortarRow body of " + size + " bytes exceeds the 2 GiB a byte array holds");
    }
    return (int) size;
  }

  /**
   * One heap segment of at least {@code size} bytes, in a one-element array: the one {@code
   * reuse}'s payload points into when it qualifies, else a new one.
   */
  private static MemorySegment[] body(MortarRow reuse, int size) {
    BinaryRowData payload = reuse.getPayload();
    if (payload != null) {
      MemorySegment[] segments = payload.getSegments();
      if (segments != null
          && segments.length == 1
          && !segments[0].isOffHeap()
          && segments[0].size() >= size) {
        return segments;
      }
    }
    return new MemorySegment[] {MemorySegmentFactory.wrap(new byte[size])};
  }

  /**
   * Points {@code row}'s key, partition path and payload at their places in {@code body}: key at 0,
   * partition path after it, payload after that ({@code payloadSize} -1: no payload).
   */
  private MortarRow attach(
      MortarRow row, MemorySegment[] body, int keySize, int partitionSize, int payloadSize) {
    row.setRecordKey(
        keySize == 0
            ? BinaryStringData.EMPTY_UTF8
            : BinaryStringData.fromAddress(body, 0, keySize));
    row.setPartitionPath(
        partitionSize == 0
            ? BinaryStringData.EMPTY_UTF8
            : BinaryStringData.fromAddress(body, keySize, partitionSize));
    if (payloadSize < 0) {
      row.setPayload(null);
      return row;
    }
    BinaryRowData payload = row.getPayload();
    if (payload == null || payload.getArity() != payloadArity) {
      payload = new BinaryRowData(payloadArity);
      row.setPayload(payload);
    }
    payload.pointTo(body, keySize + partitionSize, payloadSize);
    return row;
  }
}
