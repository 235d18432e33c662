package dev.mortar.writer.input;

import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.transformations.PartitionTransformation;

/**
 * The sink's input as a stream whose records reach the next operator without Flink's copy between
 * chained operators.
 *
 * <p>With object reuse off (Flink's default) a chain hands each record to the next operator through
 * a deep copy made by that operator's input serializer, so that an operator that keeps a record
 * cannot see its producer change it later. The sink's first operator (the batcher, or a write task
 * chained to its input) keeps nothing of a record past {@code processElement}: it copies the bytes
 * it needs into a batch or its buffer before it returns. Flink takes an operator's input serializer
 * from the output type of the transformation in front of it; this class puts a forward edge there
 * (a virtual node, no operator) typed {@link UncopiedTypeInfo}: the input's own type, whose
 * serializer answers {@code copy} with the record itself. Reading records from the network, when
 * the operator is not chained, stays the input serializer's.
 *
 * <pre>
 *   source ──copy──▶ constraint check ──copy──▶ batcher        object reuse off, plain edge
 *   source ──copy──▶ constraint check ─forward─▶ batcher        the edge made here
 *                                    (uncopied)
 * </pre>
 */
public final class UncopiedInput {
  private UncopiedInput() {}

  /**
   * {@code input} behind a forward edge whose next operator gets the records uncopied. That
   * operator must run at {@code input}'s parallelism and must not keep a record, or anything it
   * points into, once it has processed it. An input that already ends in a partitioner of the
   * user's ({@code rebalance()}, {@code keyBy(...)}) is returned as it is: that edge is kept, and
   * records that cross the network are not copied anyway.
   */
  public static <T> DataStream<T> of(DataStream<T> input) {
    if (input.getTransformation() instanceof PartitionTransformation) {
      return input;
    }
    DataStream<T> forwarded = input.forward();
    forwarded.getTransformation().setOutputType(new UncopiedTypeInfo<>(input.getType()));
    return forwarded;
  }
}
