package dev.mortar.writer.coordinator;

import org.apache.flink.runtime.operators.coordination.CoordinationResponse;

/**
 * The instant every write task writes the requested interval's log files under, and whether
 * compaction was behind when the coordinator last listed the timeline (the write tasks then hold
 * their input).
 */
public record InstantResponse(String instant, boolean stalled) implements CoordinationResponse {
  private static final long serialVersionUID = 2L;
}
