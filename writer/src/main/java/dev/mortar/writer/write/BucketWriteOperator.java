package dev.mortar.writer.write;

import dev.mortar.buffer.BufferCursor;
import dev.mortar.buffer.PagePool;
import dev.mortar.logformat.BlockBuffer;
import dev.mortar.logformat.LogFileStat;
import dev.mortar.logformat.LogFileWriter;
import dev.mortar.logformat.LogWriterOptions;
import dev.mortar.serde.MortarRow;
import dev.mortar.serde.Operation;
import dev.mortar.writer.MortarOptions;
import dev.mortar.writer.SinkSettings;
import dev.mortar.writer.TableFileSystems;
import dev.mortar.writer.assign.OrderingField;
import dev.mortar.writer.coordinator.InstantClient;
import dev.mortar.writer.table.HudiTable;
import dev.mortar.writer.table.WriteStat;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import javax.annotation.Nullable;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.hadoop.fs.FileSystem;

/**
 * A write task: buffers shuffle rows per (partition, bucket) and writes each flush of a bucket as
 * new log file(s) of the bucket's file group under the current instant.
 *
 * <p>Flushes happen when a bucket holds more than {@code write.batch-size}, when the page pool is
 * full (the largest other bucket goes first, then the append is retried), before every checkpoint
 * barrier and at end of input. The instant of the interval after checkpoint N is asked from the
 * {@code InstantCoordinator} at the first flush of the interval; before forwarding barrier N+1 the
 * task emits one {@link WriteResult} with every log file of that instant. The task keeps no state:
 * a restarted task starts a fresh interval after the restored checkpoint.
 */
public final class BucketWriteOperator extends AbstractStreamOperator<WriteResult>
    implements OneInputStreamOperator<MortarRow, WriteResult>, BoundedOneInput {
  private static final long serialVersionUID = 1L;

  private final SinkSettings settings;

  private transient OrderingField ordering;
  private transient LogWriterOptions logOptions;
  private transient BlockBuffer blockBuffer;
  private transient FileSystem fs;
  private transient HudiTable table;
  private transient BucketBuffers buffers;
  private transient WriterMetrics metrics;
  private transient InstantClient instantClient;
  private transient String writeToken;
  private transient long afterCheckpoint;
  @Nullable private transient String instant;
  private transient List<WriteStat> written;

  BucketWriteOperator(SinkSettings settings) {
    this.settings = settings;
  }

  @Override
  public void initializeState(StateInitializationContext context) throws Exception {
    super.initializeState(context);
    afterCheckpoint = context.getRestoredCheckpointId().orElse(0L);
  }

  @Override
  public void open() throws Exception {
    super.open();
    ordering = OrderingField.of(settings.rowType(), settings.orderingField());
    logOptions = settings.logWriterOptions();
    blockBuffer = logOptions.newContentBuffer();
    fs = TableFileSystems.open(settings.basePath());
    table =
        HudiTable.createOrValidate(
            fs, TableFileSystems.path(settings.basePath()), settings.tableSettings());
    PagePool pool =
        new PagePool(settings.pageSize(), settings.bufferBytes(), settings.offHeap(), false);
    buffers = new BucketBuffers(pool, settings.tableName(), settings.buckets());
    metrics = new WriterMetrics(getMetricGroup(), buffers);
    int subtask = getRuntimeContext().getTaskInfo().getIndexOfThisSubtask();
    int attempt = getRuntimeContext().getTaskInfo().getAttemptNumber();
    instantClient =
        new InstantClient(
            getContainingTask().getEnvironment().getOperatorCoordinatorEventGateway(),
            getOperatorID(),
            subtask,
            attempt);
    writeToken = subtask + "-0-" + attempt;
    written = new ArrayList<>();
  }

  @Override
  public void processElement(StreamRecord<MortarRow> element) throws Exception {
    MortarRow row = element.getValue();
    BucketSlot slot = buffers.slot(row.getPartitionPath(), row.getBucket());
    BinaryRowData payload = row.getPayload();
    long orderingValue = ordering.toLong(payload);
    while (!slot.buffer().append(row.getRecordKey(), orderingValue, row.getOperation(), payload)) {
      Optional<BucketSlot> victim = buffers.largestExcept(slot);
      if (victim.isEmpty() && slot.buffer().recordCount() == 0) {
        throw new IllegalStateException(
            "the write buffer is full with no bucket to flush; raise '"
                + MortarOptions.BUFFER_MEMORY.key()
                + "' ("
                + settings.bufferBytes()
                + " bytes)");
      }
      metrics.preempted();
      flush(victim.orElse(slot));
    }
    if (slot.buffer().bytesHeld() > settings.batchBytes()) {
      flush(slot);
    }
  }

  @Override
  public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
    flushAll();
    emitResult();
    afterCheckpoint = checkpointId;
  }

  @Override
  public void endInput() throws Exception {
    flushAll();
    emitResult();
  }

  private void flushAll() throws IOException, InterruptedException {
    List<BucketSlot> slots = buffers.nonEmpty();
    slots.sort(Comparator.comparing(BucketSlot::partitionPath).thenComparing(BucketSlot::bucket));
    for (BucketSlot slot : slots) {
      flush(slot);
    }
  }

  /** Writes the slot's buffered records as new log file(s) of its file group and empties it. */
  private void flush(BucketSlot slot) throws IOException, InterruptedException {
    if (slot.buffer().recordCount() == 0) {
      return;
    }
    if (instant == null) {
      instant = instantClient.instantAfter(afterCheckpoint);
    }
    long start = System.nanoTime();
    table.ensurePartition(slot.partitionPath(), instant);
    List<WriteStat> stats = new ArrayList<>();
    try (LogFileWriter writer =
        new LogFileWriter(
            fs,
            table.basePath(),
            slot.partitionPath(),
            slot.fileId(),
            instant,
            writeToken,
            settings.rowType(),
            logOptions,
            blockBuffer)) {
      BufferCursor cursor = slot.buffer().cursor();
      while (cursor.next()) {
        if (cursor.operation() == Operation.DELETE) {
          writer.delete(cursor.key(), ordering.toOrderingValue(cursor.orderingValue()));
        } else {
          writer.write(cursor.key(), cursor.row());
        }
      }
      long millis = (System.nanoTime() - start) / 1_000_000;
      for (LogFileStat stat : writer.finish()) {
        stats.add(toWriteStat(stat, millis));
      }
      metrics.flushed(stats, millis);
    }
    slot.buffer().clear();
    written.addAll(stats);
  }

  private static WriteStat toWriteStat(LogFileStat stat, long millis) {
    // The task does not look up whether a key is new to its file group: every data record
    // counts as an insert of this log file (readers merge by key either way).
    return new WriteStat(
        stat.partitionPath(),
        stat.fileId(),
        stat.fileName(),
        stat.version(),
        stat.numWrites(),
        0,
        stat.numDeletes(),
        stat.numBlocks(),
        stat.sizeBytes(),
        millis);
  }

  private void emitResult() {
    if (instant == null) {
      return;
    }
    int subtask = getRuntimeContext().getTaskInfo().getIndexOfThisSubtask();
    output.collect(new StreamRecord<>(new WriteResult(instant, afterCheckpoint, subtask, written)));
    written.clear();
    instant = null;
  }

  @Override
  public void close() throws Exception {
    try {
      if (buffers != null) {
        buffers.close();
      }
    } finally {
      if (fs != null) {
        fs.close();
      }
      super.close();
    }
  }
}
