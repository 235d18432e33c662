package dev.mortar.writer.coordinator;

import org.apache.flink.runtime.operators.coordination.CoordinationRequest;

/**
 * A write task asks for the instant of the interval that follows checkpoint {@code
 * afterCheckpoint}.
 */
public record InstantRequest(long afterCheckpoint) implements CoordinationRequest {
  private static final long serialVersionUID = 1L;
}
