package dev.mortar.benchmark.readcost;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.streaming.api.functions.source.legacy.RichSourceFunction;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;

/**
 * Emits {@code batches} batches of {@code rowsPerBatch} upserts, the next batch only once a
 * checkpoint taken after the previous one has completed: every batch lands in its own checkpoint,
 * so the sink writes one delta commit per batch. Rows are {@link ReadCostBenchmark#ROW_TYPE}, keys
 * drawn uniformly from {@code [0, keys)} by a seeded generator. Runs with parallelism 1 and no
 * restarts (it keeps no state).
 */
final class CheckpointedBatchSource extends RichSourceFunction<RowData>
    implements CheckpointedFunction, CheckpointListener {
  private static final long serialVersionUID = 1L;

  private final int batches;
  private final int rowsPerBatch;
  private final long keys;
  private final long seed;

  private transient Map<Long, Integer> batchesAtCheckpoint;
  private volatile int emittedBatches;
  private volatile int committedBatches;
  private volatile boolean running = true;

  CheckpointedBatchSource(int batches, int rowsPerBatch, long keys, long seed) {
    this.batches = batches;
    this.rowsPerBatch = rowsPerBatch;
    this.keys = keys;
    this.seed = seed;
  }

  @Override
  public void initializeState(FunctionInitializationContext context) {
    batchesAtCheckpoint = new HashMap<>();
  }

  @Override
  public void run(SourceContext<RowData> context) throws Exception {
    SplittableRandom random = new SplittableRandom(seed);
    while (running && emittedBatches < batches) {
      if (committedBatches == emittedBatches) {
        synchronized (context.getCheckpointLock()) {
          for (int i = 0; i < rowsPerBatch; i++) {
            long key = random.nextLong(keys);
            context.collect(
                GenericRowData.of(
                    key,
                    StringData.fromString("batch " + emittedBatches + " row " + i + " key " + key),
                    (long) emittedBatches));
          }
          emittedBatches++;
        }
      }
      Thread.sleep(1);
    }
  }

  @Override
  public void snapshotState(FunctionSnapshotContext context) {
    batchesAtCheckpoint.put(context.getCheckpointId(), emittedBatches);
  }

  @Override
  public void notifyCheckpointComplete(long checkpointId) {
    Integer done = batchesAtCheckpoint.remove(checkpointId);
    if (done != null) {
      committedBatches = Math.max(committedBatches, done);
    }
    batchesAtCheckpoint.keySet().removeIf(id -> id < checkpointId);
  }

  @Override
  public void cancel() {
    running = false;
  }
}
