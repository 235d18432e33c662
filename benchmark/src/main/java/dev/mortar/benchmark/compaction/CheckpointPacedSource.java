package dev.mortar.benchmark.compaction;

import dev.mortar.benchmark.workload.WorkloadSchema;
import java.util.SplittableRandom;
import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.streaming.api.functions.source.legacy.RichSourceFunction;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;

/**
 * Emits the rows of a {@link WorkloadTable} in {@code checkpoints} equal rounds and starts a round
 * only once a checkpoint taken after the previous round has completed, so that every round becomes
 * its own delta commit. A round is emitted under the checkpoint lock, so no checkpoint cuts it.
 * Keys come from {@link WorkloadTable#keys()}, the other columns from the workload's generator.
 * Runs with parallelism 1 and keeps no state (the benchmark's job never restarts).
 */
final class CheckpointPacedSource extends RichSourceFunction<RowData>
    implements CheckpointedFunction, CheckpointListener {
  private static final long serialVersionUID = 1L;

  private final WorkloadTable table;

  private volatile long lastSnapshot = -1;
  private volatile long lastCompleted = -1;
  private volatile boolean running = true;

  CheckpointPacedSource(WorkloadTable table) {
    this.table = table;
  }

  @Override
  public void run(SourceContext<RowData> context) throws Exception {
    SplittableRandom keys = table.keys();
    WorkloadSchema.RowGenerator columns = table.schema().generator(table.seed());
    long emitted = 0;
    for (int round = 0; round < table.checkpoints() && running; round++) {
      long roundEnd = table.rows() * (round + 1) / table.checkpoints();
      long snapshotBeforeEnd;
      synchronized (context.getCheckpointLock()) {
        for (; emitted < roundEnd; emitted++) {
          GenericRowData row = columns.nextGeneric();
          row.setField(0, keys.nextLong(table.keySpace()));
          context.collect(row);
        }
        snapshotBeforeEnd = lastSnapshot;
      }
      // The last round is committed by the final checkpoint, which Flink takes once this returns.
      boolean lastRound = round + 1 == table.checkpoints();
      while (!lastRound && running && lastCompleted <= snapshotBeforeEnd) {
        Thread.sleep(5);
      }
    }
  }

  @Override
  public void initializeState(FunctionInitializationContext context) {}

  @Override
  public void snapshotState(FunctionSnapshotContext context) {
    lastSnapshot = context.getCheckpointId();
  }

  @Override
  public void notifyCheckpointComplete(long checkpointId) {
    lastCompleted = Math.max(lastCompleted, checkpointId);
  }

  @Override
  public void cancel() {
    running = false;
  }
}
