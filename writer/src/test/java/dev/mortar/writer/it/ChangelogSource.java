package dev.mortar.writer.it;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.annotation.Nullable;
import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.streaming.api.functions.source.legacy.RichSourceFunction;

/**
 * Emits a {@link Changelog} in order, exactly once across restarts (its offset is checkpointed),
 * and at most {@code perCheckpoint} changes past the last completed checkpoint, so a job spans
 * several checkpoints. Failure points can be injected by offset ({@link Failures}).
 *
 * <p>While armed failure points have not all fired when the changelog ends, the source goes on
 * emitting {@code tail} (changes that leave the expected state as it is, e.g. {@link
 * Changelog#winners}) pass after pass, at most {@link #MAX_TAIL_PASSES} times, so every point fires
 * whatever the order in which they were armed.
 *
 * <p>A {@link SourceGate} holds the source before one change until its harness opens it.
 */
final class ChangelogSource<T> extends RichSourceFunction<T>
    implements CheckpointedFunction, CheckpointListener {
  private static final long serialVersionUID = 1L;

  /** Turns a change into the emitted type. */
  interface Converter<T> extends java.io.Serializable {
    T convert(Changelog.Op op);
  }

  static final int MAX_TAIL_PASSES = 20;

  private final Changelog changelog;
  private final List<Changelog.Op> tail;
  private final int perCheckpoint;
  private final Converter<T> converter;
  @Nullable private final SourceGate gate;

  private transient ListState<Integer> offsetState;
  private transient Map<Long, Integer> offsetAtCheckpoint;
  private volatile int offset;
  private volatile int completedOffset;
  private volatile boolean running = true;

  ChangelogSource(
      Changelog changelog, List<Changelog.Op> tail, int perCheckpoint, Converter<T> converter) {
    this(changelog, tail, perCheckpoint, converter, null);
  }

  ChangelogSource(
      Changelog changelog,
      List<Changelog.Op> tail,
      int perCheckpoint,
      Converter<T> converter,
      @Nullable SourceGate gate) {
    this.changelog = changelog;
    this.tail = tail;
    this.perCheckpoint = perCheckpoint;
    this.converter = converter;
    this.gate = gate;
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
    while (running && hasNext(ops.size())) {
      synchronized (context.getCheckpointLock()) {
        while (hasNext(ops.size())
            && offset < completedOffset + perCheckpoint
            && (gate == null || !gate.holds(offset))) {
          Failures.maybeFail(Failures.Point.SOURCE_OFFSET, offset);
          Changelog.Op op =
              offset < ops.size() ? ops.get(offset) : tail.get((offset - ops.size()) % tail.size());
          context.collect(converter.convert(op));
          offset++;
        }
      }
      Thread.sleep(2);
    }
  }

  private boolean hasNext(int changes) {
    return offset < changes
        || (Failures.pending()
            && !tail.isEmpty()
            && offset < changes + MAX_TAIL_PASSES * tail.size());
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
