package dev.mortar.writer.compaction;

import dev.mortar.buffer.PagePool;
import dev.mortar.logformat.AvroSchemas;
import dev.mortar.writer.settings.SinkSettings;
import dev.mortar.writer.table.CompactionWriteStat;
import dev.mortar.writer.table.HudiTable;
import dev.mortar.writer.table.TableFileSystems;
import dev.mortar.writer.table.TableSettings;
import java.io.File;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.operators.MailboxExecutor;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.util.concurrent.ExecutorThreadFactory;
import org.apache.flink.util.function.ThrowingRunnable;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A compaction task: executes the {@link CompactionTask}s it receives, one at a time, on a thread
 * of its own, and emits a {@link CompactionResult} for each from the task's mailbox. Receiving a
 * task only queues it, so checkpoint barriers pass while a file group is being compacted: the
 * compaction runs beside the write path, never in front of it. Nothing is checkpointed; after a
 * restore the committer dispatches every pending plan again.
 *
 * <p>At end of input the operator finishes the tasks sent to be finished then ({@link
 * CompactionTask#finishAtEnd()}) and abandons the others: a queued one is not started, a running
 * one stops at its next row and deletes its file; each is answered with an abandoned result, on
 * which the committer unschedules its plan. The operator ends once every task is answered.
 */
public final class CompactOperator extends AbstractStreamOperator<CompactionResult>
    implements OneInputStreamOperator<CompactionTask, CompactionResult>, BoundedOneInput {
  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(CompactOperator.class);

  /** Row group size of a base file: what the Parquet writer holds before it writes. */
  static final long BASE_FILE_ROW_GROUP_BYTES = 64L << 20;

  private final SinkSettings settings;

  private transient FileSystem fs;
  private transient PagePool pool;
  private transient FileGroupCompactor compactor;
  private transient ExecutorService executor;
  private transient MailboxExecutor mailbox;
  private transient CompactionMetrics metrics;
  private transient int queued;
  private transient volatile boolean inputEnded;

  public CompactOperator(SinkSettings settings) {
    this.settings = settings;
  }

  @Override
  public void open() throws Exception {
    super.open();
    fs = TableFileSystems.open(settings.basePath());
    pool = settings.newCompactionPagePool();
    TableSettings table = settings.tableSettings();
    int subtask = getRuntimeContext().getTaskInfo().getIndexOfThisSubtask();
    int tasks = getRuntimeContext().getTaskInfo().getNumberOfParallelSubtasks();
    int attempt = getRuntimeContext().getTaskInfo().getAttemptNumber();
    Path basePath = TableFileSystems.path(settings.basePath());
    compactor =
        new FileGroupCompactor(
            fs,
            basePath,
            HudiTable.tempDir(basePath),
            table.rowType(),
            AvroSchemas.of(table.rowType(), table.avroRecordName(), true),
            table.orderingField(),
            settings.logWriterOptions().parquetCodec(),
            BASE_FILE_ROW_GROUP_BYTES,
            settings.logWriterOptions().parquetDictionaryPerColumn(),
            subtask + "-" + tasks + "-" + attempt,
            pool,
            spillDir(subtask));
    mailbox =
        getContainingTask()
            .getMailboxExecutorFactory()
            .createExecutor(getOperatorConfig().getChainIndex());
    executor =
        Executors.newSingleThreadExecutor(new ExecutorThreadFactory("mortar-compactor-" + subtask));
    metrics = CompactionMetrics.forTask(getMetricGroup());
  }

  /** One of the TaskManager's temporary folders ({@code io.tmp.dirs}), spread over subtasks. */
  private File spillDir(int subtask) {
    File[] dirs = getContainingTask().getEnvironment().getIOManager().getSpillingDirectories();
    return dirs[subtask % dirs.length];
  }

  @Override
  public void processElement(StreamRecord<CompactionTask> element) {
    CompactionTask task = element.getValue();
    queued++;
    executor.execute(() -> post(execute(task), task));
  }

  /** Runs on the compaction thread: compacts {@code task}, or abandons it once the input ended. */
  private ThrowingRunnable<? extends Exception> execute(CompactionTask task) {
    if (abandoned(task)) {
      return () -> answer(CompactionResult.abandoned(task));
    }
    try {
      CompactionWriteStat stat = compactor.compact(task, () -> abandoned(task));
      return () -> {
        metrics.compacted(stat);
        answer(CompactionResult.written(task, stat));
      };
    } catch (Throwable failure) {
      if (abandoned(task)) {
        return () -> answer(CompactionResult.abandoned(task));
      }
      return () -> {
        throw new IllegalStateException("compaction task failed on " + task.fileGroup(), failure);
      };
    }
  }

  private boolean abandoned(CompactionTask task) {
    return inputEnded && !task.finishAtEnd();
  }

  /** On the task's thread: emits the answer to a task. */
  private void answer(CompactionResult result) {
    queued--;
    output.collect(new StreamRecord<>(result));
  }

  /**
   * Hands the outcome of a task to the task's thread. A task that is closing (stopped with a
   * savepoint, cancelled) takes no mail: the outcome is dropped, and the plan stays pending for the
   * next run of the job, which dispatches it again.
   */
  private void post(ThrowingRunnable<? extends Exception> outcome, CompactionTask task) {
    try {
      mailbox.execute(outcome, "outcome of compaction %s of %s", task.instant(), task.fileGroup());
    } catch (RejectedExecutionException closing) {
      LOG.info(
          "Task closing: dropping the outcome of compaction {} of {}; the plan stays pending",
          task.instant(),
          task.fileGroup());
    }
  }

  @Override
  public void endInput() throws Exception {
    inputEnded = true;
    while (queued > 0) {
      mailbox.yield();
    }
  }

  @Override
  public void close() throws Exception {
    try {
      if (executor != null) {
        executor.shutdownNow();
        executor.awaitTermination(60, TimeUnit.SECONDS);
      }
      if (compactor != null) {
        compactor.close();
      }
      if (pool != null) {
        pool.close();
      }
      if (fs != null) {
        fs.close();
      }
    } finally {
      super.close();
    }
  }
}
