package dev.mortar.writer.assign;

import dev.mortar.serde.MortarRow;
import dev.mortar.writer.table.BucketIndex;
import org.apache.flink.api.common.functions.Partitioner;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.table.data.binary.BinaryStringData;

/**
 * The shuffle: a row goes to the write task that owns its (partition, bucket) by Hudi's own
 * bucket-to-task function ({@link BucketIndex#taskFor}), so Mortar and Hudi's Flink writer agree on
 * which task writes a file group. The selector computes the task; {@link TaskPartitioner} only
 * checks it against the real number of write tasks.
 */
public final class BucketTaskSelector implements KeySelector<MortarRow, Integer> {
  private static final long serialVersionUID = 1L;

  private final int buckets;
  private final int writeTasks;
  private transient BinaryStringData lastPartitionData;
  private transient String lastPartition;

  public BucketTaskSelector(int buckets, int writeTasks) {
    this.buckets = buckets;
    this.writeTasks = writeTasks;
  }

  @Override
  public Integer getKey(MortarRow row) {
    BinaryStringData partition = row.getPartitionPath();
    if (!partition.equals(lastPartitionData)) {
      lastPartition = partition.toString();
      lastPartitionData = partition.copy();
    }
    return BucketIndex.taskFor(lastPartition, row.getBucket(), buckets, writeTasks);
  }

  /** Sends a row to the task its key names. */
  public static final class TaskPartitioner implements Partitioner<Integer> {
    private static final long serialVersionUID = 1L;

    private final int writeTasks;

    public TaskPartitioner(int writeTasks) {
      this.writeTasks = writeTasks;
    }

    @Override
    public int partition(Integer task, int numPartitions) {
      if (numPartitions != writeTasks) {
        throw new IllegalStateException(
            "the sink was built for " + writeTasks + " write tasks but runs " + numPartitions);
      }
      return task;
    }
  }
}
