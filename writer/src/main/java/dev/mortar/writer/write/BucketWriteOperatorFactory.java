package dev.mortar.writer.write;

import dev.mortar.writer.coordinator.InstantCoordinatorProvider;
import dev.mortar.writer.input.WriteInput;
import dev.mortar.writer.settings.SinkSettings;
import org.apache.flink.runtime.jobgraph.OperatorID;
import org.apache.flink.runtime.operators.coordination.OperatorCoordinator;
import org.apache.flink.streaming.api.operators.AbstractStreamOperatorFactory;
import org.apache.flink.streaming.api.operators.CoordinatedOperatorFactory;
import org.apache.flink.streaming.api.operators.OneInputStreamOperatorFactory;
import org.apache.flink.streaming.api.operators.StreamOperator;
import org.apache.flink.streaming.api.operators.StreamOperatorParameters;

/**
 * Creates {@link BucketWriteOperator}s and their {@code InstantCoordinator}.
 *
 * @param <IN> what the write tasks receive (see {@link WriteInput})
 */
public final class BucketWriteOperatorFactory<IN> extends AbstractStreamOperatorFactory<WriteResult>
    implements OneInputStreamOperatorFactory<IN, WriteResult>,
        CoordinatedOperatorFactory<WriteResult> {
  private static final long serialVersionUID = 1L;

  private final SinkSettings settings;
  private final WriteInput<IN> input;

  public BucketWriteOperatorFactory(SinkSettings settings, WriteInput<IN> input) {
    this.settings = settings;
    this.input = input;
  }

  @Override
  @SuppressWarnings("unchecked")
  public <T extends StreamOperator<WriteResult>> T createStreamOperator(
      StreamOperatorParameters<WriteResult> parameters) {
    return (T) new BucketWriteOperator<>(settings, input, parameters);
  }

  @Override
  public OperatorCoordinator.Provider getCoordinatorProvider(
      String operatorName, OperatorID operatorId) {
    return new InstantCoordinatorProvider(operatorName, operatorId, settings);
  }

  @Override
  public Class<? extends StreamOperator> getStreamOperatorClass(ClassLoader classLoader) {
    return BucketWriteOperator.class;
  }
}
