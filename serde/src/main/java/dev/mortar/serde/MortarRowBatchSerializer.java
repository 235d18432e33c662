package dev.mortar.serde;

import java.io.IOException;
import java.util.ArrayDeque;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Serializes {@link MortarRowBatch} as its row count, its byte count and its bytes (layout in the
 * batch's class comment). The rows' records go out with one array write and come back with one
 * read; their layout is {@link MortarRowSerializer}'s business.
 *
 * <p>{@link #deserialize(DataInputView)} (Flink's network input calls it, without reuse) fills a
 * batch its reader handed back with {@link MortarRowBatch#recycle()} when it has one, else a new
 * one. The spare batches belong to this instance, which is why {@link #duplicate()} makes a new
 * one: Flink gives each task its own, and a task deserializes and recycles on one thread. A new
 * instance (also one Java deserialization gives Flink, by {@code readResolve}) starts with one
 * spare of {@link MortarRowBatch#RECEIVING_BYTES}, so that a job's first batch takes the path every
 * later batch takes (rfc/0005, "Per-job deoptimization").
 */
public final class MortarRowBatchSerializer extends TypeSerializer<MortarRowBatch> {
  private static final long serialVersionUID = 1L;

  /** Batches handed back by {@link MortarRowBatch#recycle()}. */
  private final transient ArrayDeque<MortarRowBatch> spares;

  public MortarRowBatchSerializer() {
    spares = new ArrayDeque<>(MortarRowBatch.MAX_SPARES);
    spares.push(newReceivingBatch());
  }

  /** A deserialized serializer is a new one, with its own spare batch. */
  private Object readResolve() {
    return new MortarRowBatchSerializer();
  }

  @Override
  public boolean isImmutableType() {
    return false;
  }

  @Override
  public TypeSerializer<MortarRowBatch> duplicate() {
    return new MortarRowBatchSerializer();
  }

  @Override
  public MortarRowBatch createInstance() {
    return new MortarRowBatch(MortarRowBatch.NO_TASK, 0);
  }

  private static MortarRowBatch newReceivingBatch() {
    return new MortarRowBatch(MortarRowBatch.NO_TASK, MortarRowBatch.RECEIVING_BYTES);
  }

  @Override
  public MortarRowBatch copy(MortarRowBatch from) {
    return copy(from, new MortarRowBatch(from.task(), from.sizeInBytes()));
  }

  @Override
  public MortarRowBatch copy(MortarRowBatch from, MortarRowBatch reuse) {
    try {
      reuse.copyFrom(from);
    } catch (IOException e) {
      throw new IllegalStateException("copying into a heap array failed", e);
    }
    return reuse;
  }

  @Override
  public int getLength() {
    return -1;
  }

  @Override
  public void serialize(MortarRowBatch batch, DataOutputView out) throws IOException {
    MortarRowWireFormat.writeVarInt(out, batch.rowCount());
    MortarRowWireFormat.writeVarInt(out, batch.sizeInBytes());
    out.write(batch.array(), 0, batch.sizeInBytes());
  }

  @Override
  public MortarRowBatch deserialize(DataInputView in) throws IOException {
    MortarRowBatch batch = spares.isEmpty() ? newReceivingBatch() : spares.pop();
    batch.readBy(spares);
    return deserialize(batch, in);
  }

  /**
   * Reads a batch into {@code reuse}.
   *
   * @throws IllegalStateException when {@code reuse} was recycled: it belongs to this serializer
   */
  @Override
  public MortarRowBatch deserialize(MortarRowBatch reuse, DataInputView in) throws IOException {
    reuse.checkNotRecycled();
    int rowCount = MortarRowWireFormat.readLength(in, "batch row count");
    int size = MortarRowWireFormat.readLength(in, "batch byte count");
    reuse.readFrom(in, rowCount, size);
    return reuse;
  }

  @Override
  public void copy(DataInputView source, DataOutputView target) throws IOException {
    int rowCount = MortarRowWireFormat.readLength(source, "batch row count");
    int size = MortarRowWireFormat.readLength(source, "batch byte count");
    MortarRowWireFormat.writeVarInt(target, rowCount);
    MortarRowWireFormat.writeVarInt(target, size);
    target.write(source, size);
  }

  @Override
  public TypeSerializerSnapshot<MortarRowBatch> snapshotConfiguration() {
    return new Snapshot();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof MortarRowBatchSerializer;
  }

  @Override
  public int hashCode() {
    return MortarRowBatchSerializer.class.hashCode();
  }

  /**
   * The serializer has no configuration: a snapshot restores it as is. Version 1 = this layout of
   * the batch around rows of {@link MortarRowWireFormat} version 1.
   */
  public static final class Snapshot extends SimpleTypeSerializerSnapshot<MortarRowBatch> {
    public Snapshot() {
      super(MortarRowBatchSerializer::new);
    }
  }
}
