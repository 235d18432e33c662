package dev.mortar.writer.coordinator;

import dev.mortar.writer.settings.SinkSettings;
import org.apache.flink.runtime.jobgraph.OperatorID;
import org.apache.flink.runtime.metrics.scope.ScopeFormat;
import org.apache.flink.runtime.operators.coordination.OperatorCoordinator;

/** Creates the {@link InstantCoordinator} of a write operator. */
public final class InstantCoordinatorProvider implements OperatorCoordinator.Provider {
  private static final long serialVersionUID = 1L;

  private final String operatorName;
  private final OperatorID operatorId;
  private final SinkSettings settings;

  public InstantCoordinatorProvider(
      String operatorName, OperatorID operatorId, SinkSettings settings) {
    this.operatorName = operatorName;
    this.operatorId = operatorId;
    this.settings = settings;
  }

  @Override
  public OperatorID getOperatorId() {
    return operatorId;
  }

  @Override
  public OperatorCoordinator create(OperatorCoordinator.Context context) {
    return new InstantCoordinator(
        operatorName, settings, new LeaseKeeper(jobId(context), operatorName, context::failJob));
  }

  /**
   * The Flink job's id: Flink 1.20's coordinator context does not expose it, its metric group names
   * it as the scope variable {@code <job_id>}.
   */
  private static String jobId(OperatorCoordinator.Context context) {
    String job = context.metricGroup().getAllVariables().get(ScopeFormat.SCOPE_JOB_ID);
    if (job == null) {
      throw new IllegalStateException(
          "the coordinator's metric group names no " + ScopeFormat.SCOPE_JOB_ID);
    }
    return job;
  }
}
