package dev.mortar.writer.input;

import dev.mortar.serde.MortarRow;
import dev.mortar.serde.MortarRowBatch;
import dev.mortar.serde.MortarRowBatchReader;
import java.io.IOException;
import java.io.Serializable;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.table.types.logical.RowType;

/**
 * What a write task receives and how it becomes the shuffle rows it buffers: batches of shuffle
 * rows behind the bucket shuffle ({@link #shuffleBatches}), or the sink's input rows when the task
 * is chained to its input and assigns key and bucket itself.
 *
 * @param <IN> the records the write operator receives
 */
public interface WriteInput<IN> extends Serializable {
  /** Called once in the write operator's {@code open}, before any record. */
  void open(MetricGroup metrics);

  /**
   * Hands the shuffle rows of {@code record} to {@code rows}, in order; none when the sink drops
   * the record. A row may be reused once {@code rows} returns.
   */
  void forEachRow(IN record, RowConsumer rows) throws IOException, InterruptedException;

  /**
   * Takes the shuffle rows of a write task's input; also the batch reader's row action, so that a
   * batch is read without an adapter object per batch.
   */
  @FunctionalInterface
  interface RowConsumer extends MortarRowBatchReader.RowAction<InterruptedException> {
    @Override
    void accept(MortarRow row) throws IOException, InterruptedException;
  }

  /**
   * Input that is batches of shuffle rows with payloads of {@code payloadType}. Each batch goes
   * back to the serializer that read it once its rows are handed on ({@link
   * MortarRowBatch#recycle()}).
   */
  static WriteInput<MortarRowBatch> shuffleBatches(RowType payloadType) {
    return new WriteInput<>() {
      private static final long serialVersionUID = 1L;

      private transient MortarRowBatchReader reader;

      @Override
      public void open(MetricGroup metrics) {
        reader = new MortarRowBatchReader(payloadType);
      }

      @Override
      public void forEachRow(MortarRowBatch batch, RowConsumer rows)
          throws IOException, InterruptedException {
        // the consumer copies each row before it returns
        reader.forEachRowThenRecycle(batch, rows);
      }
    };
  }
}
