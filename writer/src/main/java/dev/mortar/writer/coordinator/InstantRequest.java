package dev.mortar.writer.coordinator;

import org.apache.flink.runtime.operators.coordination.CoordinationRequest;

/**
 * Write task {@code subtask} (execution attempt {@code attempt}) asks for the instant of the
 * interval that follows checkpoint {@code afterCheckpoint}.
 */
public record InstantRequest(long afterCheckpoint, int subtask, int attempt)
    implements CoordinationRequest {
  private static final long serialVersionUID = 1L;
}
