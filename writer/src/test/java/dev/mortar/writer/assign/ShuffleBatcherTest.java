package dev.mortar.writer.assign;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mortar.serde.MortarRow;
import dev.mortar.serde.MortarRowBatch;
import dev.mortar.serde.MortarRowBatchReader;
import dev.mortar.serde.MortarRowBatchSerializer;
import dev.mortar.testing.Seeds;
import dev.mortar.writer.MortarSink;
import dev.mortar.writer.it.Changelog;
import dev.mortar.writer.table.BucketIndex;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.types.RowKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sending step of the shuffle in Flink's operator harness: which rows leave in which batch, and
 * when. Every row leaves exactly once, in order per task, in a batch of the task Hudi's function
 * names; full batches leave at once, the rest before the barrier or at end of input.
 */
class ShuffleBatcherTest {
  private static final int BUCKETS = 7;
  private static final int WRITE_TASKS = 3;

  @TempDir Path dir;

  @Test
  void rowsLeaveOnceInTheirTasksBatchWhenFullBeforeTheBarrierAndAtTheEnd() throws Exception {
    long seed = Seeds.seed("ShuffleBatcherTest");
    SplittableRandom random = new SplittableRandom(seed);
    MortarSink sink =
        MortarSink.builder(Changelog.ROW_TYPE)
            .path(dir.resolve("t").toUri().toString())
            .recordKey("id")
            .partitionFields("dt")
            .buckets(BUCKETS)
            .build();
    ShuffleBatcher batcher = new ShuffleBatcher(sink.settings(), WRITE_TASKS);
    List<List<Long>> sentPerTask = new ArrayList<>();
    for (int task = 0; task < WRITE_TASKS; task++) {
      sentPerTask.add(new ArrayList<>());
    }
    try (OneInputStreamOperatorTestHarness<RowData, MortarRowBatch> harness =
        new OneInputStreamOperatorTestHarness<>(batcher)) {
      // The harness keeps copies of what the operator emits: the batcher reuses its batches.
      harness.setup(new MortarRowBatchSerializer());
      harness.open();

      for (int checkpoint = 1; checkpoint <= 3; checkpoint++) {
        int rows = random.nextInt(2_000);
        for (int i = 0; i < rows; i++) {
          long id = random.nextLong(1_000_000);
          String name = "n".repeat(random.nextInt(300));
          String dt = "p" + random.nextInt(3);
          RowKind kind = random.nextInt(10) == 0 ? RowKind.UPDATE_BEFORE : RowKind.UPDATE_AFTER;
          harness.processElement(
              new StreamRecord<>(
                  GenericRowData.ofKind(
                      kind, id, StringData.fromString(name), 1L, StringData.fromString(dt), 1.0)));
          if (kind != RowKind.UPDATE_BEFORE) {
            sentPerTask.get(taskOf(id, dt)).add(id);
          }
          if (i % 50 == 0) {
            // Full batches have left: a task holds less than a batch (a row here is >= 50 bytes).
            List<List<Long>> received = receivedPerTask(harness);
            for (int task = 0; task < WRITE_TASKS; task++) {
              int held = sentPerTask.get(task).size() - received.get(task).size();
              assertThat(held).isBetween(0, ShuffleBatcher.BATCH_BYTES / 50);
            }
          }
        }
        harness.prepareSnapshotPreBarrier(checkpoint);
        assertThat(receivedPerTask(harness))
            .as("after barrier %s", checkpoint)
            .isEqualTo(sentPerTask);
      }
      harness.processElement(
          new StreamRecord<>(
              GenericRowData.of(
                  42L, StringData.fromString("x"), 1L, StringData.fromString("p1"), 1.0)));
      sentPerTask.get(taskOf(42L, "p1")).add(42L);
      harness.endInput();
      assertThat(receivedPerTask(harness)).as("after end of input").isEqualTo(sentPerTask);
    }
  }

  private static int taskOf(long id, String partition) {
    int bucket = BucketIndex.bucketId(Long.toString(id), BUCKETS);
    return BucketIndex.taskFor(partition, bucket, BUCKETS, WRITE_TASKS);
  }

  /** The ids of the rows in every batch emitted so far, by the task each batch is bound for. */
  private static List<List<Long>> receivedPerTask(
      OneInputStreamOperatorTestHarness<RowData, MortarRowBatch> harness) throws Exception {
    List<List<Long>> perTask = new ArrayList<>();
    for (int task = 0; task < WRITE_TASKS; task++) {
      perTask.add(new ArrayList<>());
    }
    MortarRowBatchReader reader = new MortarRowBatchReader(Changelog.ROW_TYPE);
    for (MortarRowBatch batch : harness.extractOutputValues()) {
      assertThat(batch.isEmpty()).isFalse();
      reader.reset(batch);
      for (MortarRow row = reader.next(); row != null; row = reader.next()) {
        perTask.get(batch.task()).add(row.getPayload().getLong(0));
      }
    }
    return perTask;
  }
}
