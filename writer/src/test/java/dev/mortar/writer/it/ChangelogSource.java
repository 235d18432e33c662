package dev.mortar.writer.it;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.streaming.api.functions.source.RichSourceFunction;

/**
 * Emits a {@link Changelog} in order, exactly once across restarts (its offset is checkpointed),
 * and at most {@code perCheckpoint} changes past the last completed checkpoint, so a job spans
 * several checkpoints. Failure points can be injected by offset ({@link Failures}).
 */
final class ChangelogSource<T> extends RichSourceFunction<T>
    implements CheckpointedFunction, CheckpointListener {
  private static final long serialVersionUID = 1L;

  /** Turns a change into the emitted type. */
  interface Converter<T> extends java.io.Serializable {
    T convert(Changelog.Op op);
  }

  private final Changelog changelog;
  private final int perCheckpoint;
  private final Converter<T> converter;

  private transient ListState<Integer> offsetState;
  private transient Map<Long, Integer> offsetAtCheckpoint;
  private volatile int offset;
  private volatile int completedOffset;
  private volatile boolean running = true;

  ChangelogSource(Changelog changelog, int perCheckpoint, Converter<T> converter) {
    this.changelog = changelog;
    this.perCheckpoint = perCheckpoint;
    this.converter = converter;
  }

  @Override
  public void initializeState(FunctionInitializationContext context) throws Exception {
    offsetState =
        context
            .getOperatorStateStore()
            .getListState(new ListStateDescriptor<>("offset", Types.INT));
    offsetAtCheckpoint = new HashMap<>();
    for (Integer restored : offsetState.get()) {
      offset = restored;
      completedOffset = restored;
    }
  }

  @Override
  public void run(SourceContext<T> context) throws Exception {
    List<Changelog.Op> ops = changelog.ops();
    while (running && offset < ops.size()) {
      synchronized (context.getCheckpointLock()) {
        while (offset < ops.size() && offset < completedOffset + perCheckpoint) {
          Failures.maybeFail(Failures.Point.SOURCE_OFFSET, offset);
          context.collect(converter.convert(ops.get(offset)));
          offset++;
        }
      }
      Thread.sleep(2);
    }
  }

  @Override
  public void snapshotState(FunctionSnapshotContext context) throws Exception {
    offsetState.update(List.of(offset));
    offsetAtCheckpoint.put(context.getCheckpointId(), offset);
  }

  @Override
  public void notifyCheckpointComplete(long checkpointId) {
    Integer done = offsetAtCheckpoint.remove(checkpointId);
    if (done != null) {
      completedOffset = Math.max(completedOffset, done);
    }
    offsetAtCheckpoint.keySet().removeIf(id -> id < checkpointId);
  }

  @Override
  public void cancel() {
    running = false;
  }
}
