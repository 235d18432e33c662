package dev.mortar.writer.coordinator;

import org.apache.flink.runtime.operators.coordination.CoordinationResponse;

/** Whether compaction is behind on a timeline listed for this answer. */
public record StallResponse(boolean stalled) implements CoordinationResponse {
  private static final long serialVersionUID = 1L;
}
