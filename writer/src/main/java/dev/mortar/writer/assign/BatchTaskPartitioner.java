package dev.mortar.writer.assign;

import dev.mortar.serde.MortarRowBatch;
import org.apache.flink.runtime.io.network.api.writer.SubtaskStateMapper;
import org.apache.flink.runtime.plugable.SerializationDelegate;
import org.apache.flink.streaming.runtime.partitioner.StreamPartitioner;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

/**
 * The shuffle's partitioner: a batch goes to the write task it was made for ({@link
 * MortarRowBatch#task}, by {@link BucketTaskSelector}), which must be one of the write tasks the
 * job runs. A partitioner of its own rather than Flink's custom partitioner, which Flink refuses in
 * a job with unaligned checkpoints even on an edge that stays aligned.
 */
public final class BatchTaskPartitioner extends StreamPartitioner<MortarRowBatch> {
  private static final long serialVersionUID = 1L;

  private final int writeTasks;

  public BatchTaskPartitioner(int writeTasks) {
    this.writeTasks = writeTasks;
  }

  @Override
  public int selectChannel(SerializationDelegate<StreamRecord<MortarRowBatch>> record) {
    if (numberOfChannels != writeTasks) {
      throw new IllegalStateException(
          "the sink was built for " + writeTasks + " write tasks but runs " + numberOfChannels);
    }
    return record.getInstance().getValue().task();
  }

  @Override
  public StreamPartitioner<MortarRowBatch> copy() {
    return this;
  }

  /** Only for in-flight data of an unaligned checkpoint, which this edge never has. */
  @Override
  public SubtaskStateMapper getDownstreamSubtaskStateMapper() {
    return SubtaskStateMapper.FULL;
  }

  @Override
  public boolean isPointwise() {
    return false;
  }

  @Override
  public String toString() {
    return "BUCKET_TASK";
  }
}
