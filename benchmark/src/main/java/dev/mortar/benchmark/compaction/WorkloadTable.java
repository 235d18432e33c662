package dev.mortar.benchmark.compaction;

import dev.mortar.benchmark.workload.WorkloadSchema;
import dev.mortar.writer.MortarSink;
import java.io.Serializable;
import java.util.BitSet;
import java.util.SplittableRandom;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;

/**
 * The table a compaction benchmark compacts: {@code rows} upserts of a workload schema with keys
 * uniform in [0, {@code keySpace}) (so that a key space below the rows gives updates), written by
 * Mortar in {@code checkpoints} delta commits with {@code compaction.delta-commits} = {@code
 * checkpoints} and the plans left to others: after the last commit one plan covers every log file.
 */
record WorkloadTable(
    WorkloadSchema schema, long rows, long keySpace, int checkpoints, int buckets, long seed)
    implements Serializable {

  static final String RECORD_KEY = "item_id";

  /** The key sequence of the rows, in order. */
  SplittableRandom keys() {
    return new SplittableRandom(seed ^ 0x5DEECE66DL);
  }

  /** How many distinct keys the rows hold: what a reader of the compacted table must find. */
  long distinctKeys() {
    SplittableRandom keys = keys();
    BitSet seen = new BitSet(Math.toIntExact(keySpace));
    for (long i = 0; i < rows; i++) {
      seen.set((int) keys.nextLong(keySpace));
    }
    return seen.cardinality();
  }

  /** Writes the table at {@code path} (a new folder) with a Mortar job on a local MiniCluster. */
  void write(String path, int parallelism) throws Exception {
    Configuration conf = new Configuration();
    conf.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
    env.enableCheckpointing(200);
    env.setParallelism(parallelism);
    DataStream<RowData> rows =
        env.addSource(
                new CheckpointPacedSource(this), "workload", InternalTypeInfo.of(schema.rowType()))
            .setParallelism(1);
    MortarSink.builder(schema.rowType())
        .path(path)
        .recordKey(RECORD_KEY)
        .buckets(buckets)
        .parallelism(parallelism)
        .compactionScheduling(true)
        .compactionDeltaCommits(checkpoints)
        .compactionInJob(false)
        .build()
        .sinkTo(rows);
    env.execute("compaction benchmark: write " + schema.name().toLowerCase());
  }
}
