package dev.mortar.writer.coordinator;

import org.apache.flink.runtime.operators.coordination.CoordinationResponse;

/** The instant every write task writes the requested interval's log files under. */
public record InstantResponse(String instant) implements CoordinationResponse {
  private static final long serialVersionUID = 1L;
}
