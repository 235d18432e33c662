package dev.mortar.serde;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mortar.testing.Seeds;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.functions.Partitioner;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Mortar rows through a real Flink job with generic types disabled: any fallback to Kryo would fail
 * the job graph. Rows are shuffled by bucket with a custom partitioner across three subtasks,
 * checked on arrival to sit on the subtask their bucket names, and collected back.
 */
class MortarRowShufflePipelineTest {
  private static final int PARALLELISM = 3;

  @RegisterExtension
  static final MiniClusterExtension CLUSTER =
      new MiniClusterExtension(
          new MiniClusterResourceConfiguration.Builder()
              .setNumberTaskManagers(1)
              .setNumberSlotsPerTaskManager(PARALLELISM)
              .build());

  @Test
  void shuffledRowsArriveUnchangedOnTheirBucketsSubtask() throws Exception {
    RandomMortarRows random = new RandomMortarRows(Seeds.seed("shuffle pipeline"));
    RowType payloadType = random.rowType(6);
    List<MortarRow> input = new ArrayList<>();
    for (int i = 0; i < Seeds.size("mortar.serde.pipelineRows", 2_000); i++) {
      input.add(random.mortarRow(payloadType));
    }

    Configuration conf = new Configuration();
    conf.set(PipelineOptions.GENERIC_TYPES, false);
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
    env.setParallelism(PARALLELISM);
    assertThat(env.getConfig().getSerializerConfig().hasGenericTypesDisabled()).isTrue();
    MortarRowTypeInfo typeInfo = new MortarRowTypeInfo(payloadType);
    DataStream<MortarRow> shuffled =
        env.fromData(input, typeInfo)
            .rebalance()
            .partitionCustom(new ByBucket(), MortarRow::getBucket)
            .map(new CheckSubtask())
            .returns(typeInfo);

    List<MortarRow> output = new ArrayList<>();
    try (CloseableIterator<MortarRow> rows = shuffled.executeAndCollect("mortar-row shuffle")) {
      rows.forEachRemaining(output::add);
    }
    assertThat(output).containsExactlyInAnyOrderElementsOf(input);
  }

  /** Sends a row to subtask {@code bucket mod n}. */
  private static final class ByBucket implements Partitioner<Integer> {
    @Override
    public int partition(Integer bucket, int numPartitions) {
      return Math.floorMod(bucket, numPartitions);
    }
  }

  /** Fails the job when a row reaches a subtask its bucket does not map to. */
  private static final class CheckSubtask extends RichMapFunction<MortarRow, MortarRow> {
    @Override
    public MortarRow map(MortarRow row) {
      int subtask = getRuntimeContext().getTaskInfo().getIndexOfThisSubtask();
      int parallelism = getRuntimeContext().getTaskInfo().getNumberOfParallelSubtasks();
      if (Math.floorMod(row.getBucket(), parallelism) != subtask) {
        throw new IllegalStateException(
            "bucket " + row.getBucket() + " arrived on subtask " + subtask + " of " + parallelism);
      }
      return row;
    }
  }
}
