package dev.mortar.writer.write;

import dev.mortar.buffer.BufferOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.core.memory.ManagedMemoryUseCase;
import org.apache.flink.runtime.execution.Environment;
import org.apache.flink.runtime.memory.MemoryManager;
import org.apache.flink.runtime.memory.MemoryReservationException;
import org.apache.flink.streaming.api.graph.StreamConfig;

/**
 * A write task's share of its slot's Flink managed memory ({@code buffer.managed-memory}), reserved
 * in the slot's {@link MemoryManager} from the task's start to its close, so that Flink counts the
 * page pool it bounds. The share is what Flink computed for the write operator from the weight the
 * sink declared ({@code buffer.memory} in MiB) against the slot's other consumers of managed
 * memory.
 */
final class ManagedBufferMemory implements AutoCloseable {
  private final MemoryManager memory;
  private final long bytes;

  private ManagedBufferMemory(MemoryManager memory, long bytes) {
    this.memory = memory;
    this.bytes = bytes;
  }

  /**
   * Reserves the write operator's share of the slot's managed memory.
   *
   * @param minimumBytes the least a page pool can work with
   * @throws IllegalStateException naming the options to change when the share is below {@code
   *     minimumBytes} or the slot cannot grant it
   */
  static ManagedBufferMemory reserve(
      Environment environment, StreamConfig config, long minimumBytes) {
    MemoryManager memory = environment.getMemoryManager();
    double fraction =
        config.getManagedMemoryFractionOperatorUseCaseOfSlot(
            ManagedMemoryUseCase.OPERATOR,
            environment.getTaskManagerInfo().getConfiguration(),
            environment.getJobConfiguration(),
            environment.getUserCodeClassLoader().asClassLoader());
    long share = memory.computeMemorySize(fraction);
    if (share < minimumBytes) {
      throw new IllegalStateException(
          "the write task's share of its slot's managed memory ('"
              + BufferOptions.MANAGED_MEMORY.key()
              + "') is "
              + share
              + " bytes, less than the "
              + minimumBytes
              + " bytes of 3 buffer pages: give the TaskManager more managed memory ('"
              + TaskManagerOptions.MANAGED_MEMORY_SIZE.key()
              + "' or '"
              + TaskManagerOptions.MANAGED_MEMORY_FRACTION.key()
              + "'), raise the write task's weight '"
              + BufferOptions.MEMORY.key()
              + "', or turn '"
              + BufferOptions.MANAGED_MEMORY.key()
              + "' off");
    }
    ManagedBufferMemory reserved = new ManagedBufferMemory(memory, share);
    try {
      memory.reserveMemory(reserved, share);
    } catch (MemoryReservationException e) {
      throw new IllegalStateException(
          "the slot's managed memory cannot grant the write task its share of "
              + share
              + " bytes ('"
              + BufferOptions.MANAGED_MEMORY.key()
              + "')",
          e);
    }
    return reserved;
  }

  /** The reserved bytes: the page pool's budget. */
  long bytes() {
    return bytes;
  }

  @Override
  public void close() {
    memory.releaseMemory(this, bytes);
  }
}
