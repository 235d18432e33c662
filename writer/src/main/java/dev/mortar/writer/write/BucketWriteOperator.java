package dev.mortar.writer.write;

import dev.mortar.buffer.BucketBuffer;
import dev.mortar.buffer.BufferOptions;
import dev.mortar.serde.MortarRow;
import dev.mortar.writer.coordinator.InstantClient;
import dev.mortar.writer.coordinator.InstantResponse;
import dev.mortar.writer.input.OrderingField;
import dev.mortar.writer.input.WriteInput;
import dev.mortar.writer.settings.SinkSettings;
import dev.mortar.writer.table.BucketIndex;
import dev.mortar.writer.table.HudiTable;
import dev.mortar.writer.table.TableFileSystems;
import dev.mortar.writer.table.WriteStat;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.IntStream;
import javax.annotation.Nullable;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.api.operators.StreamOperatorParameters;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.hadoop.fs.FileSystem;

/**
 * A write task: buffers shuffle rows per (partition, bucket) and writes each flush of a bucket as
 * new log file(s) of the bucket's file group under the current instant. Its {@link WriteInput} says
 * what it receives: batches of shuffle rows from the bucket shuffle, or the sink's input rows when
 * it is the only write task and is chained to its input.
 *
 * <p>Flushes happen when a bucket holds more than {@code write.batch-size}, when the page pool is
 * full (the largest other bucket goes first, then the append is retried), before every checkpoint
 * barrier and at end of input. A flush seals the bucket's buffer and hands it to the task's {@link
 * FlushQueue}, whose threads write it with the task's {@link BucketFlusher}s while the task goes on
 * buffering rows; when the pool is full the task waits for the oldest flush, and before a barrier
 * it waits for all of them. The instant of the interval after checkpoint N is asked from the {@code
 * InstantCoordinator} at the first flush of the interval; before forwarding barrier N+1 the task
 * emits one {@link WriteResult} with every log file of that instant. The task keeps no state: a
 * restarted task starts a fresh interval after the restored checkpoint. While the coordinator says
 * compaction is behind, the task's {@link InputStall} holds each input before it is taken.
 */
public final class BucketWriteOperator<IN> extends AbstractStreamOperator<WriteResult>
    implements OneInputStreamOperator<IN, WriteResult>, BoundedOneInput {
  private static final long serialVersionUID = 1L;

  private final SinkSettings settings;
  private final WriteInput<IN> input;

  private transient OrderingField ordering;

  /** One flusher per lane of the flush queue: each encodes with its own scratch. */
  private transient BucketFlusher[] flushers;

  /** The pool's budget when it comes from Flink's managed memory, else null. */
  @Nullable private transient ManagedBufferMemory managedMemory;

  private transient FlushQueue flushes;
  private transient FileSystem fs;
  private transient HudiTable table;
  private transient BucketBuffers buffers;
  private transient WriterMetrics metrics;
  private transient InstantClient instantClient;
  private transient InputStall stall;
  private transient long afterCheckpoint;
  @Nullable private transient String instant;
  private transient List<WriteStat> written;
  private transient WriteInput.RowConsumer bufferRow;

  /** Sets the operator up in its task (Flink 2 made {@code setup} visible to subclasses only). */
  BucketWriteOperator(
      SinkSettings settings,
      WriteInput<IN> input,
      StreamOperatorParameters<WriteResult> parameters) {
    this.settings = settings;
    this.input = input;
    setup(parameters.getContainingTask(), parameters.getStreamConfig(), parameters.getOutput());
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
    fs = TableFileSystems.open(settings.basePath());
    table =
        HudiTable.createOrValidate(
            fs, TableFileSystems.path(settings.basePath()), settings.tableSettings());
    if (settings.managedBufferMemory()) {
      managedMemory =
          ManagedBufferMemory.reserve(
              getContainingTask().getEnvironment(),
              getOperatorConfig(),
              settings.minimumBufferBytes());
    }
    buffers =
        new BucketBuffers(
            managedMemory != null
                ? settings.newManagedPagePool(managedMemory.bytes())
                : settings.newPagePool(),
            settings.tableName(),
            settings.buckets(),
            settings.deduplication());
    int subtask = getRuntimeContext().getTaskInfo().getIndexOfThisSubtask();
    if (settings.partitionFields().isEmpty()) {
      int writeTasks = getRuntimeContext().getTaskInfo().getNumberOfParallelSubtasks();
      buffers.openSlots(
          IntStream.range(0, settings.buckets())
              .filter(b -> BucketIndex.taskFor("", b, settings.buckets(), writeTasks) == subtask));
    }
    metrics = new WriterMetrics(getMetricGroup(), buffers);
    input.open(getMetricGroup());
    int attempt = getRuntimeContext().getTaskInfo().getAttemptNumber();
    instantClient =
        new InstantClient(
            getContainingTask().getEnvironment().getOperatorCoordinatorEventGateway(),
            getOperatorID(),
            subtask,
            attempt);
    stall = new InputStall(instantClient, metrics, settings.stallMaxWaitMillis());
    flushers = new BucketFlusher[settings.flushThreads()];
    for (int lane = 0; lane < flushers.length; lane++) {
      flushers[lane] =
          new BucketFlusher(
              fs,
              table.basePath(),
              settings.rowType(),
              settings.logWriterOptions(),
              ordering,
              subtask + "-0-" + attempt);
    }
    written = new ArrayList<>();
    bufferRow = this::buffer;
    flushes =
        new FlushQueue(
            "mortar-flush: " + settings.tableName() + " (" + (subtask + 1) + ")#" + attempt,
            flushers.length,
            FlushQueue.CLOSE_TIMEOUT,
            this::collected);
  }

  @Override
  public void processElement(StreamRecord<IN> element) throws Exception {
    stall.hold();
    input.forEachRow(element.getValue(), bufferRow);
  }

  /**
   * Appends a shuffle row to its bucket's buffer. When the pool is full it waits for the oldest
   * flush or flushes the largest other bucket, and retries; a bucket past the batch size is
   * flushed.
   */
  private void buffer(MortarRow row) throws IOException, InterruptedException {
    metrics.rowReceived();
    BucketSlot slot = buffers.slot(row.getPartitionPath(), row.getBucket());
    BinaryRowData payload = row.getPayload();
    long orderingValue = ordering.toLong(payload);
    while (!slot.buffer().append(row.getRecordKey(), orderingValue, row.getOperation(), payload)) {
      if (flushes.awaitOldest()) {
        continue;
      }
      Optional<BucketSlot> victim = buffers.largestExcept(slot);
      if (victim.isEmpty() && slot.buffer().recordCount() == 0) {
        throw new IllegalStateException(
            "the write buffer of "
                + buffers.budgetBytes()
                + " bytes is full with no bucket to flush; raise '"
                + BufferOptions.MEMORY.key()
                + "'"
                + (managedMemory != null ? " (the write task's weight in managed memory)" : ""));
      }
      metrics.preempted();
      startFlush(victim.orElse(slot));
    }
    if (slot.buffer().bytesHeld() > settings.batchBytes()) {
      startFlush(slot);
    }
    flushes.collectDone();
  }

  @Override
  public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
    flushAll();
    emitResult();
    afterCheckpoint = checkpointId;
    stall.newInterval();
  }

  @Override
  public void endInput() throws Exception {
    flushAll();
    emitResult();
  }

  /** Flushes every bucket that holds records and waits until all flushes in flight are written. */
  private void flushAll() throws IOException, InterruptedException {
    List<BucketSlot> slots = buffers.nonEmpty();
    slots.sort(Comparator.comparing(BucketSlot::partitionPath).thenComparing(BucketSlot::bucket));
    for (BucketSlot slot : slots) {
      startFlush(slot);
    }
    flushes.awaitAll();
  }

  /** Seals the slot's buffer and hands it to the flush thread; the slot takes new rows at once. */
  private void startFlush(BucketSlot slot) throws IOException, InterruptedException {
    if (slot.buffer().recordCount() == 0) {
      return;
    }
    if (instant == null) {
      InstantResponse response = instantClient.instantAfter(afterCheckpoint);
      instant = response.instant();
      stall.learned(response.stalled());
    }
    table.ensurePartition(slot.partitionPath(), instant);
    String instantTime = instant;
    String partitionPath = slot.partitionPath();
    String fileId = slot.fileId();
    BucketBuffer sealed = buffers.seal(slot);
    // A file group's flushes share a lane, so its log file versions keep the rows' order.
    int lane = Math.floorMod(fileId.hashCode(), flushers.length);
    BucketFlusher flusher = flushers[lane];
    flushes.submit(lane, sealed, () -> flusher.write(sealed, partitionPath, fileId, instantTime));
  }

  /** Counts a collected flush in the metrics and adds its files to the interval's result. */
  private void collected(FlushQueue.Flushed flush) {
    metrics.flushed(flush.stats(), flush.millis());
    written.addAll(flush.stats());
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
    // The resources close in reverse order, each even when one before it failed (the first failure
    // is thrown, later ones are suppressed in it): the flush thread first, then the buffers and
    // their pool, which frees every page it can even when a flush did not stop, then the managed
    // memory the pool had, then the file system.
    try (FileSystem closedLast = fs;
        ManagedBufferMemory closedThird = managedMemory;
        BucketBuffers closedSecond = buffers;
        FlushQueue closedFirst = flushes) {
      // only the closing above
    } finally {
      super.close();
    }
  }
}
