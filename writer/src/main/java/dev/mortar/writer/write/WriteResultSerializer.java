package dev.mortar.writer.write;

import dev.mortar.writer.table.WriteStat;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.base.TypeSerializerSingleton;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Serializer of {@link WriteResult}, used on the writer → committer edge and in the committer's
 * checkpointed state. Layout (version 1):
 *
 * <pre>
 * instant:UTF | afterCheckpoint:long | subtask:int | statCount:int | stat*
 * stat = partitionPath:UTF | fileId:UTF | logFileName:UTF | logVersion:int | numInserts:long
 *        | numUpdates:long | numDeletes:long | numBlocks:int | sizeBytes:long | writeMillis:long
 * </pre>
 */
public final class WriteResultSerializer extends TypeSerializerSingleton<WriteResult> {
  private static final long serialVersionUID = 1L;

  public static final WriteResultSerializer INSTANCE = new WriteResultSerializer();

  @Override
  public boolean isImmutableType() {
    return true;
  }

  @Override
  public WriteResult createInstance() {
    return new WriteResult("", 0, 0, List.of());
  }

  @Override
  public WriteResult copy(WriteResult from) {
    return from;
  }

  @Override
  public WriteResult copy(WriteResult from, WriteResult reuse) {
    return from;
  }

  @Override
  public int getLength() {
    return -1;
  }

  @Override
  public void serialize(WriteResult result, DataOutputView out) throws IOException {
    out.writeUTF(result.instant());
    out.writeLong(result.afterCheckpoint());
    out.writeInt(result.subtask());
    out.writeInt(result.stats().size());
    for (WriteStat stat : result.stats()) {
      out.writeUTF(stat.partitionPath());
      out.writeUTF(stat.fileId());
      out.writeUTF(stat.logFileName());
      out.writeInt(stat.logVersion());
      out.writeLong(stat.numInserts());
      out.writeLong(stat.numUpdates());
      out.writeLong(stat.numDeletes());
      out.writeInt(stat.numBlocks());
      out.writeLong(stat.sizeBytes());
      out.writeLong(stat.writeMillis());
    }
  }

  @Override
  public WriteResult deserialize(DataInputView in) throws IOException {
    String instant = in.readUTF();
    long afterCheckpoint = in.readLong();
    int subtask = in.readInt();
    int count = in.readInt();
    List<WriteStat> stats = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      stats.add(
          new WriteStat(
              in.readUTF(),
              in.readUTF(),
              in.readUTF(),
              in.readInt(),
              in.readLong(),
              in.readLong(),
              in.readLong(),
              in.readInt(),
              in.readLong(),
              in.readLong()));
    }
    return new WriteResult(instant, afterCheckpoint, subtask, stats);
  }

  @Override
  public WriteResult deserialize(WriteResult reuse, DataInputView in) throws IOException {
    return deserialize(in);
  }

  @Override
  public void copy(DataInputView in, DataOutputView out) throws IOException {
    serialize(deserialize(in), out);
  }

  @Override
  public TypeSerializerSnapshot<WriteResult> snapshotConfiguration() {
    return new Snapshot();
  }

  /** Snapshot of the stateless {@link WriteResultSerializer}. */
  public static final class Snapshot extends SimpleTypeSerializerSnapshot<WriteResult> {
    public Snapshot() {
      super(() -> INSTANCE);
    }
  }
}
