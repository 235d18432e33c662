package dev.mortar.writer.coordinator;

import java.io.IOException;
import java.util.concurrent.ExecutionException;
import org.apache.flink.runtime.jobgraph.OperatorID;
import org.apache.flink.runtime.jobgraph.tasks.TaskOperatorEventGateway;
import org.apache.flink.runtime.operators.coordination.CoordinationRequest;
import org.apache.flink.runtime.operators.coordination.CoordinationResponse;
import org.apache.flink.util.SerializedValue;

/**
 * A write task's side of {@link InstantCoordinator}: blocking requests "which instant after
 * checkpoint N" and "is compaction still behind".
 */
public final class InstantClient {
  private final TaskOperatorEventGateway gateway;
  private final OperatorID operatorId;
  private final int subtask;
  private final int attempt;

  public InstantClient(
      TaskOperatorEventGateway gateway, OperatorID operatorId, int subtask, int attempt) {
    this.gateway = gateway;
    this.operatorId = operatorId;
    this.subtask = subtask;
    this.attempt = attempt;
  }

  public InstantResponse instantAfter(long checkpointId) throws IOException, InterruptedException {
    return (InstantResponse)
        request(
            new InstantRequest(checkpointId, subtask, attempt),
            "start the instant after checkpoint " + checkpointId);
  }

  public boolean stalled() throws IOException, InterruptedException {
    return ((StallResponse) request(new StallRequest(), "check the compaction backlog")).stalled();
  }

  private CoordinationResponse request(CoordinationRequest request, String purpose)
      throws IOException, InterruptedException {
    try {
      return gateway.sendRequestToCoordinator(operatorId, new SerializedValue<>(request)).get();
    } catch (ExecutionException e) {
      throw new IOException("the instant coordinator failed to " + purpose, e.getCause());
    }
  }
}
