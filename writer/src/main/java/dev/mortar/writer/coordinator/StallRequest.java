package dev.mortar.writer.coordinator;

import org.apache.flink.runtime.operators.coordination.CoordinationRequest;

/**
 * A stalled write task asks whether compaction is still behind; the answer is a {@link
 * StallResponse}.
 */
public record StallRequest() implements CoordinationRequest {
  private static final long serialVersionUID = 1L;
}
