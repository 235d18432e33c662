package dev.mortar.writer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mortar.writer.assign.BatchTaskPartitioner;
import dev.mortar.writer.it.Changelog;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.StreamSupport;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.jobgraph.JobVertex;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.apache.flink.streaming.api.graph.StreamNode;
import org.apache.flink.streaming.runtime.partitioner.ForwardPartitioner;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * How rows reach the write tasks: through the assigner and the bucket shuffle, except with one
 * write task behind an input of parallelism 1, which is chained to the input and assigns itself.
 * Either first operator takes its input's rows without Flink's copy.
 */
class MortarSinkTopologyTest {
  @TempDir Path dir;

  @ParameterizedTest(name = "input {0}, write tasks {1}: forwarded {2}")
  @CsvSource({"1,1,true", "1,2,false", "2,1,false", "2,2,false"})
  void writeTasksGetRowsThroughTheShuffleUnlessOneTaskFollowsOneInput(
      int inputParallelism, int writeTasks, boolean forwarded) {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    addSink(rows(env, inputParallelism), writeTasks);
    StreamGraph graph = env.getStreamGraph();

    StreamNode write =
        graph.getStreamNodes().stream()
            .filter(node -> node.getOperatorName().startsWith("mortar-write"))
            .findFirst()
            .orElseThrow();
    assertThat(write.getInEdges()).hasSize(1);
    assertThat(write.getInEdges().get(0).getPartitioner())
        .isInstanceOf(forwarded ? ForwardPartitioner.class : BatchTaskPartitioner.class);
    StreamNode first =
        graph.getStreamNodes().stream()
            .filter(
                node ->
                    node.getOperatorName().startsWith(forwarded ? "mortar-write" : "mortar-assign"))
            .findFirst()
            .orElseThrow();
    @SuppressWarnings("unchecked")
    TypeSerializer<RowData> inputSerializer =
        (TypeSerializer<RowData>) first.getTypeSerializersIn()[0];
    RowData row = GenericRowData.of(1L, null, null, null, null);
    assertThat(inputSerializer.copy(row))
        .as("the sink's first operator takes rows uncopied")
        .isSameAs(row);
    List<String> tasks =
        StreamSupport.stream(graph.getJobGraph().getVertices().spliterator(), false)
            .map(JobVertex::getName)
            .toList();
    List<String> operators =
        graph.getStreamNodes().stream().map(StreamNode::getOperatorName).toList();
    if (forwarded) {
      assertThat(operators).noneMatch(name -> name.startsWith("mortar-assign"));
      assertThat(tasks)
          .noneMatch(name -> name.startsWith("mortar-write"))
          .anyMatch(name -> name.endsWith("-> mortar-write: t"));
    } else {
      assertThat(operators).anyMatch(name -> name.startsWith("mortar-assign"));
      assertThat(tasks).anyMatch(name -> name.startsWith("mortar-write"));
    }
  }

  @ParameterizedTest(name = "input {0}, write tasks {1}")
  @CsvSource({"1,1", "2,2"})
  void aPartitionerOfTheUsersInFrontOfTheSinkIsKept(int inputParallelism, int writeTasks) {
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    addSink(rows(env, inputParallelism).rebalance(), writeTasks);

    StreamNode first =
        env.getStreamGraph().getStreamNodes().stream()
            .filter(node -> node.getOperatorName().startsWith("mortar-"))
            .min(Comparator.comparingInt(StreamNode::getId))
            .orElseThrow();
    assertThat(first.getInEdges()).hasSize(1);
    assertThat(first.getInEdges().get(0).getPartitioner())
        .as("the edge of the user's rebalance(), not a forward edge")
        .isNotInstanceOf(ForwardPartitioner.class);
  }

  /**
   * With unaligned checkpoints on, every edge into a Mortar operator that is not chained (the
   * bucket shuffle, write results, compaction operations and results) stays aligned, and the user's
   * edge in front of the sink keeps unaligned checkpoints; the job builds (Flink refuses unaligned
   * checkpoints on a custom partitioner's edge that allows them).
   */
  @Test
  void edgesIntoMortarsOperatorsStayAlignedUnderUnalignedCheckpoints() {
    Configuration conf = new Configuration();
    conf.set(CheckpointingOptions.ENABLE_UNALIGNED, true);
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
    env.enableCheckpointing(1_000);
    addSink(rows(env, 2).rebalance(), 2);
    StreamGraph graph = env.getStreamGraph();

    Map<String, Boolean> unalignedInto = new TreeMap<>();
    for (StreamNode node : graph.getStreamNodes()) {
      String name = node.getOperatorName();
      if (name.startsWith("mortar-")) {
        assertThat(node.getInEdges()).as("edges into %s", name).hasSize(1);
        unalignedInto.put(
            name.substring(0, name.indexOf(':')),
            node.getInEdges().get(0).supportsUnalignedCheckpoints());
      }
    }
    assertThat(unalignedInto)
        .containsExactlyEntriesOf(
            new TreeMap<>(
                Map.of(
                    "mortar-assign", true,
                    "mortar-commit", false,
                    "mortar-compact", false,
                    "mortar-compaction-commit", false,
                    "mortar-end", false,
                    "mortar-write", false)));
    assertThat(graph.getJobGraph().getCheckpointingSettings()).isNotNull();
  }

  private static DataStream<RowData> rows(StreamExecutionEnvironment env, int parallelism) {
    return env.fromSequence(1, 10)
        .map(id -> (RowData) GenericRowData.of(id, null, null, null, null))
        .returns(InternalTypeInfo.of(Changelog.ROW_TYPE))
        .setParallelism(parallelism);
  }

  private void addSink(DataStream<RowData> input, int writeTasks) {
    MortarSink.builder(Changelog.ROW_TYPE)
        .path(dir.resolve("t").toUri().toString())
        .recordKey("id")
        .parallelism(writeTasks)
        .build()
        .sinkTo(input);
  }
}
