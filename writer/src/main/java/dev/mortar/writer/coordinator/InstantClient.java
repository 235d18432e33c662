package dev.mortar.writer.coordinator;

import java.io.IOException;
import java.util.concurrent.ExecutionException;
import org.apache.flink.runtime.jobgraph.OperatorID;
import org.apache.flink.runtime.jobgraph.tasks.TaskOperatorEventGateway;
import org.apache.flink.util.SerializedValue;

/**
 * A write task's side of {@link InstantCoordinator}: a blocking "which instant after checkpoint N".
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

  public String instantAfter(long checkpointId) throws IOException, InterruptedException {
    try {
      InstantResponse response =
          (InstantResponse)
              gateway
                  .sendRequestToCoordinator(
                      operatorId,
                      new SerializedValue<>(new InstantRequest(checkpointId, subtask, attempt)))
                  .get();
      return response.instant();
    } catch (ExecutionException e) {
      throw new IOException(
          "the instant coordinator failed to start the instant after checkpoint " + checkpointId,
          e.getCause());
    }
  }
}
