package dev.mortar.writer.assign;

import dev.mortar.serde.MortarRow;
import dev.mortar.serde.MortarRowBatch;
import dev.mortar.serde.MortarRowSerializer;
import dev.mortar.writer.settings.SinkSettings;
import java.io.IOException;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.ChainingStrategy;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperatorFactory;
import org.apache.flink.streaming.api.operators.SimpleOperatorFactory;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.table.data.RowData;

/**
 * First step of the sink in front of the bucket shuffle, chained to its input: makes each row's
 * shuffle row ({@link ShuffleRowMaker}), picks its write task ({@link BucketTaskSelector}) and adds
 * it to that task's {@link MortarRowBatch}. A batch is sent once it holds {@link #BATCH_BYTES}, and
 * every batch with rows is sent before each checkpoint barrier and at the end of input, so the rows
 * of a checkpoint interval reach their write task ahead of the barrier, as single rows would.
 *
 * <p>Why batches: Flink's network stack costs the same per record whatever its size (serializer
 * call, channel selector, length header, record deserializer, operator call), and a write task
 * copies a row's bytes into its buffer anyway, so rows gain nothing from travelling one by one. At
 * {@value #BATCH_BYTES} bytes a batch holds ~40 Schema1 rows, a quarter of a network buffer: most
 * batches lie inside one buffer and are read without the reader's copy of records that span two. A
 * row larger than that leaves at once with the batch it was added to. Each task holds one batch per
 * write task, less than {@value #BATCH_BYTES} bytes of rows each between rows, in an array of twice
 * that.
 */
public final class ShuffleBatcher extends AbstractStreamOperator<MortarRowBatch>
    implements OneInputStreamOperator<RowData, MortarRowBatch>, BoundedOneInput {
  private static final long serialVersionUID = 1L;

  /** A batch is sent once it holds this many bytes of rows. */
  public static final int BATCH_BYTES = 8 * 1024;

  private final SinkSettings settings;
  private final int writeTasks;
  private final ShuffleRowMaker rows;

  private transient BucketTaskSelector tasks;
  private transient MortarRowSerializer serializer;
  private transient MortarRowBatch[] batches;

  public ShuffleBatcher(SinkSettings settings, int writeTasks) {
    this.settings = settings;
    this.writeTasks = writeTasks;
    this.rows = new ShuffleRowMaker(settings);
  }

  /**
   * An empty batch for {@code task}: a batch under {@link #BATCH_BYTES} takes any row of up to
   * {@link #BATCH_BYTES} without growing, so a job's first batches take the path later ones take
   * (rfc/0005, "Per-job deoptimization").
   */
  public static MortarRowBatch newBatch(int task) {
    return new MortarRowBatch(task, 2 * BATCH_BYTES);
  }

  /** A batcher that is always chained to its input. */
  public static OneInputStreamOperatorFactory<RowData, MortarRowBatch> chained(
      SinkSettings settings, int writeTasks) {
    return new ChainedFactory(new ShuffleBatcher(settings, writeTasks));
  }

  @Override
  public void open() throws Exception {
    super.open();
    rows.open(getMetricGroup());
    tasks = new BucketTaskSelector(settings.buckets(), writeTasks);
    serializer = new MortarRowSerializer(settings.rowType());
    batches = new MortarRowBatch[writeTasks];
    for (int task = 0; task < writeTasks; task++) {
      batches[task] = newBatch(task);
    }
  }

  @Override
  public void processElement(StreamRecord<RowData> element) throws IOException {
    MortarRow row = rows.toShuffleRow(element.getValue());
    if (row == null) {
      return;
    }
    MortarRowBatch batch = batches[tasks.taskOf(row)];
    batch.add(row, serializer);
    if (batch.sizeInBytes() >= BATCH_BYTES) {
      send(batch);
    }
  }

  @Override
  public void prepareSnapshotPreBarrier(long checkpointId) {
    sendAll();
  }

  @Override
  public void endInput() {
    sendAll();
  }

  private void sendAll() {
    for (MortarRowBatch batch : batches) {
      if (!batch.isEmpty()) {
        send(batch);
      }
    }
  }

  /** Sends the batch; the network writer serializes it at once, so it is cleared for reuse. */
  private void send(MortarRowBatch batch) {
    output.collect(new StreamRecord<>(batch));
    batch.clear();
  }

  /**
   * Sets the chaining strategy on the factory, where Flink 2 reads it (Flink 1.20 also reads it
   * there, and copies it into the operator).
   */
  private static final class ChainedFactory extends SimpleOperatorFactory<MortarRowBatch>
      implements OneInputStreamOperatorFactory<RowData, MortarRowBatch> {
    private static final long serialVersionUID = 1L;

    private ChainedFactory(ShuffleBatcher batcher) {
      super(batcher);
      setChainingStrategy(ChainingStrategy.ALWAYS);
    }
  }
}
