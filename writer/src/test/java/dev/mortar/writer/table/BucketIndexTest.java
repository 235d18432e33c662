package dev.mortar.writer.table;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mortar.testing.Seeds;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import org.apache.hudi.common.model.HoodieLogFile;
import org.apache.hudi.common.util.Functions;
import org.apache.hudi.common.util.hash.BucketIndexUtil;
import org.apache.hudi.storage.StoragePath;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class BucketIndexTest {
  private static final long SEED = Seeds.seed("BucketIndexTest");
  private static final int RUNS = Integer.getInteger("mortar.bucket.runs", 20_000);

  /** Vectors from Hudi 1.1.1's BucketIdentifier (hudi-format.md §11), hash fields = key fields. */
  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "id1|4|1",
        "id2|4|2",
        "id5|4|1",
        "uuid-0001|256|242",
        "12345|16|2",
        "a:1,b:x|8|0",
        "a:__null__,b:x|8|1"
      })
  void bucketIdMatchesHudiVectors(String recordKey, int numBuckets, int bucket) {
    assertThat(BucketIndex.bucketId(recordKey, numBuckets)).isEqualTo(bucket);
  }

  @Test
  void complexKeyValuesMayContainColonsAndCommas() {
    assertThat(BucketIndex.hashKeys("col1:val1,col2:2014-10-22 13:50:42,col3:val3"))
        .containsExactly("val1", "2014-10-22 13:50:42", "val3");
    assertThat(BucketIndex.hashKeys("a:x,y,b:__empty__")).containsExactly("x,y", "");
    assertThat(BucketIndex.hashKeys("a:1,b:x:y")).containsExactly("1", "x:y");
    assertThat(BucketIndex.hashKeys("k:v")).containsExactly("k:v");
  }

  @ParameterizedTest
  @CsvSource({"'',0 1 2 3 0", "2024-01-01,0 1 2 3 0", "dt=2024-01-01,1 2 3 0 1"})
  void taskForMatchesHudiVectors(String partition, String tasks) {
    int[] expected = Arrays.stream(tasks.split(" ")).mapToInt(Integer::parseInt).toArray();
    for (int bucket = 0; bucket < 5; bucket++) {
      assertThat(BucketIndex.taskFor(partition, bucket, 5, 4)).isEqualTo(expected[bucket]);
    }
  }

  @Test
  void taskForEqualsHudisPartitionIndexFunction() {
    Random random = new Random(SEED);
    for (int i = 0; i < RUNS; i++) {
      int parallelism = 1 + random.nextInt(64);
      int numBuckets = 1 + random.nextInt(1024);
      int bucket = random.nextInt(numBuckets);
      String partition = random.nextBoolean() ? "" : "dt=" + random.nextInt(100_000);
      Functions.Function3<Integer, String, Integer, Integer> hudi =
          BucketIndexUtil.getPartitionIndexFunc(parallelism);
      assertThat(BucketIndex.taskFor(partition, bucket, numBuckets, parallelism))
          .as(
              "partition %s bucket %s of %s, parallelism %s",
              partition, bucket, numBuckets, parallelism)
          .isEqualTo(hudi.apply(numBuckets, partition, bucket));
    }
  }

  @Test
  void fileIdIsDeterministicPerTablePartitionAndBucket() {
    String fileId = BucketIndex.fileId("t1", "2024-01-01", 5);
    assertThat(fileId).isEqualTo(BucketIndex.fileId("t1", "2024-01-01", 5));
    assertThat(fileId).matches("00000005-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
    assertThat(BucketIndex.bucketOfFileId(fileId)).isEqualTo(5);
    Set<String> ids = new HashSet<>();
    for (String table : new String[] {"t1", "t2"}) {
      for (String partition : new String[] {"", "a", "a/b"}) {
        for (int bucket = 0; bucket < 100; bucket++) {
          ids.add(BucketIndex.fileId(table, partition, bucket));
        }
      }
    }
    assertThat(ids).hasSize(600);
  }

  @Test
  void hudiParsesTheFileIdBackFromALogFileName() {
    String fileId = BucketIndex.fileId("t1", "2024-01-01", 12);
    HoodieLogFile log =
        new HoodieLogFile(
            new StoragePath("/t/2024-01-01/." + fileId + "_20261122121208113.log.3_1-2-0"));
    assertThat(log.getFileId()).isEqualTo(fileId);
    assertThat(log.getDeltaCommitTime()).isEqualTo("20261122121208113");
    assertThat(log.getLogVersion()).isEqualTo(3);
  }
}
