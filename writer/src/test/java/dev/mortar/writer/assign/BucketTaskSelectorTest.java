package dev.mortar.writer.assign;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mortar.serde.MortarRow;
import dev.mortar.serde.Operation;
import dev.mortar.testing.Seeds;
import dev.mortar.writer.table.BucketIndex;
import java.util.SplittableRandom;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.junit.jupiter.api.Test;

/**
 * The selector's incremental task computation against {@link BucketIndex#taskFor} (itself checked
 * against Hudi's function in BucketIndexTest), over random table shapes and random runs of
 * partitions, so that a cached partition is both reused and replaced.
 */
class BucketTaskSelectorTest {
  private static final long SEED = Seeds.seed("BucketTaskSelectorTest");

  @Test
  void selectsHudisTaskForEveryRow() {
    SplittableRandom random = new SplittableRandom(SEED);
    for (int shape = 0; shape < 200; shape++) {
      int buckets = 1 + random.nextInt(300);
      int writeTasks = 1 + random.nextInt(40);
      String[] partitions = new String[1 + random.nextInt(5)];
      for (int i = 0; i < partitions.length; i++) {
        partitions[i] = random.nextInt(4) == 0 ? "" : "dt=2026-11-" + random.nextInt(1000);
      }
      BucketTaskSelector selector = new BucketTaskSelector(buckets, writeTasks);
      MortarRow row = new MortarRow();
      for (int i = 0; i < 500; i++) {
        String partition = partitions[random.nextInt(partitions.length)];
        int bucket = random.nextInt(buckets);
        row.setPartitionPath(BinaryStringData.fromString(partition));
        row.setBucket(bucket);
        row.setOperation(Operation.UPDATE);
        assertThat(selector.taskOf(row))
            .as(
                "partition '%s' bucket %s of %s, %s write tasks",
                partition, bucket, buckets, writeTasks)
            .isEqualTo(BucketIndex.taskFor(partition, bucket, buckets, writeTasks));
      }
    }
  }
}
