package dev.mortar.writer.input;

import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.transformations.PartitionTransformation;
import org.apache.flink.streaming.runtime.partitioner.GlobalPartitioner;
import org.apache.flink.streaming.runtime.partitioner.RebalancePartitioner;
import org.apache.flink.streaming.runtime.partitioner.StreamPartitioner;

/**
 * Every edge into a Mortar operator that is not chained: the shuffle of row batches to the write
 * tasks and the edges between Mortar's own operators. They stay aligned when the job turns on
 * unaligned checkpoints (a barrier does not overtake their records), for two reasons:
 *
 * <ul>
 *   <li>the write results, compaction operations and compaction results they carry are what a
 *       checkpoint seals and then commits: a barrier that overtook one would leave it out of the
 *       checkpoint that should commit it, as Flink keeps the channels inside its own sink topology
 *       aligned (FLINK-36287);
 *   <li>a row batch holds rows of several buckets for one write task: a restore at another
 *       parallelism could not send the batches of an overtaken buffer to their new tasks.
 * </ul>
 *
 * The edges in front of the sink, the user's, keep unaligned checkpoints.
 */
public final class AlignedEdges {
  private AlignedEdges() {}

  /** Every record of {@code stream} to the one task of the next operator, aligned. */
  public static <T> DataStream<T> global(DataStream<T> stream) {
    return aligned(stream, new GlobalPartitioner<>());
  }

  /** The records of {@code stream} round-robin to the next operator's tasks, aligned. */
  public static <T> DataStream<T> rebalance(DataStream<T> stream) {
    return aligned(stream, new RebalancePartitioner<>());
  }

  /** The records of {@code stream} to the tasks {@code partitioner} picks, aligned. */
  public static <T> DataStream<T> aligned(DataStream<T> stream, StreamPartitioner<T> partitioner) {
    partitioner.disableUnalignedCheckpoints();
    return new DataStream<>(
        stream.getExecutionEnvironment(),
        new PartitionTransformation<>(stream.getTransformation(), partitioner));
  }
}
