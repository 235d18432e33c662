package dev.mortar.writer.assign;

import dev.mortar.serde.MortarRow;
import dev.mortar.writer.table.BucketIndex;
import org.apache.flink.table.data.binary.BinaryStringData;

/**
 * The shuffle: a row goes to the write task that owns its (partition, bucket) by Hudi's own
 * bucket-to-task function ({@link BucketIndex#taskFor}), so Mortar and Hudi's Flink writer agree on
 * which task writes a file group. The selector computes the task of each row for {@link
 * ShuffleBatcher}; {@link BatchTaskPartitioner} sends each batch to the task it was made for.
 *
 * <p>Hudi's function is {@code (start(partition) * buckets + bucket) % tasks}. Rows of one
 * partition usually come in runs, so the selector keeps the task of the current partition's bucket
 * 0 and adds {@code bucket % tasks} to it, wrapping once: the same task, by {@code (a + b) mod p =
 * (a mod p + b mod p) mod p}, for one int remainder per row instead of two long ones.
 */
public final class BucketTaskSelector {

  private final int buckets;
  private final int writeTasks;

  /**
   * The partition of the last row, the empty one (a table without partitions) before the first: a
   * job's first row then takes the branch its later rows take (rfc/0005, "Per-job deoptimization").
   */
  private BinaryStringData lastPartition = BinaryStringData.EMPTY_UTF8;

  /** The task of bucket 0 of {@link #lastPartition}. */
  private int firstTaskOfPartition;

  public BucketTaskSelector(int buckets, int writeTasks) {
    this.buckets = buckets;
    this.writeTasks = writeTasks;
    this.firstTaskOfPartition = BucketIndex.taskFor("", 0, buckets, writeTasks);
  }

  /** The write task of the row's (partition, bucket). */
  public int taskOf(MortarRow row) {
    BinaryStringData partition = row.getPartitionPath();
    if (!partition.equals(lastPartition)) {
      firstTaskOfPartition = BucketIndex.taskFor(partition.toString(), 0, buckets, writeTasks);
      lastPartition = partition.copy();
    }
    int task = firstTaskOfPartition + row.getBucket() % writeTasks;
    return task < writeTasks ? task : task - writeTasks;
  }
}
