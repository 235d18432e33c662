package dev.mortar.writer.write;

import dev.mortar.serde.MortarRow;
import java.io.Serializable;
import javax.annotation.Nullable;
import org.apache.flink.metrics.MetricGroup;

/**
 * What a write task receives and how it becomes the shuffle row it buffers: the shuffle row itself
 * behind the bucket shuffle ({@link #shuffleRows()}), or the sink's input rows when the task is
 * chained to its input and assigns key and bucket itself.
 *
 * @param <IN> the records the write operator receives
 */
public interface WriteInput<IN> extends Serializable {
  /** Called once in the write operator's {@code open}, before any record. */
  void open(MetricGroup metrics);

  /**
   * The shuffle row of {@code record}, or {@code null} when the sink drops it. The returned row may
   * be reused by the next call.
   */
  @Nullable
  MortarRow toShuffleRow(IN record);

  /** Input that is already the shuffle row. */
  static WriteInput<MortarRow> shuffleRows() {
    return new WriteInput<>() {
      private static final long serialVersionUID = 1L;

      @Override
      public void open(MetricGroup metrics) {}

      @Override
      public MortarRow toShuffleRow(MortarRow record) {
        return record;
      }
    };
  }
}
