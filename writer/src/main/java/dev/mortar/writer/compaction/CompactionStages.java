package dev.mortar.writer.compaction;

import dev.mortar.writer.input.AlignedEdges;
import dev.mortar.writer.settings.SinkSettings;
import java.util.Optional;
import java.util.function.Function;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;

/**
 * The in-job compaction stages after the committer:
 *
 * <pre>
 *   mortar-commit (1) ──CompactionTask, rebalanced──▶ mortar-compact (n)
 *       ──CompactionResult──▶ mortar-compaction-commit (1)
 * </pre>
 */
public final class CompactionStages {
  /** The committer's output: the operations of the plans it dispatches. */
  public static final TypeInformation<CompactionTask> TASK_TYPE =
      new SerializableTypeInfo<>(CompactionTask.class);

  private static final TypeInformation<CompactionResult> RESULT_TYPE =
      new SerializableTypeInfo<>(CompactionResult.class);

  private CompactionStages() {}

  /**
   * Adds the compaction tasks and the compaction committer after {@code tasks}.
   *
   * @param uids the uid of an operator by its name, empty for none
   * @param afterCompaction what the compaction committer starts after each commit (the cleaner)
   * @param fenced whether the job holds the table's writer lease, which then fences each commit
   */
  public static DataStream<Void> after(
      DataStream<CompactionTask> tasks,
      SinkSettings settings,
      int parallelism,
      Function<String, Optional<String>> uids,
      AfterCompaction afterCompaction,
      boolean fenced) {
    SingleOutputStreamOperator<CompactionResult> compacted =
        AlignedEdges.rebalance(tasks)
            .transform(
                "mortar-compact: " + settings.tableName(),
                RESULT_TYPE,
                new CompactOperator(settings))
            .setParallelism(parallelism);
    uids.apply("mortar-compact").ifPresent(compacted::uid);
    SingleOutputStreamOperator<Void> committed =
        AlignedEdges.global(compacted)
            .transform(
                "mortar-compaction-commit: " + settings.tableName(),
                Types.VOID,
                new CompactionCommitOperator(settings, afterCompaction, fenced))
            .setParallelism(1)
            .setMaxParallelism(1);
    uids.apply("mortar-compaction-commit").ifPresent(committed::uid);
    return committed;
  }
}
