package dev.mortar.benchmark.buffer;

import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.generated.NormalizedKeyComputer;
import org.apache.flink.table.runtime.generated.RecordComparator;

/**
 * No sort key: records stay in arrival order. What Hudi 1.1's {@code BufferUtils.createBuffer}
 * passes to {@code BinaryInMemorySortBuffer} ({@code NaturalOrderKeyComputer} and {@code
 * NaturalOrderRecordComparator}).
 */
final class NaturalOrder implements NormalizedKeyComputer, RecordComparator {
  private static final long serialVersionUID = 1L;

  @Override
  public void putKey(RowData record, MemorySegment target, int offset) {}

  @Override
  public int compareKey(MemorySegment a, int aOffset, MemorySegment b, int bOffset) {
    return 0;
  }

  @Override
  public void swapKey(MemorySegment a, int aOffset, MemorySegment b, int bOffset) {}

  @Override
  public int getNumKeyBytes() {
    return 0;
  }

  @Override
  public boolean isKeyFullyDetermines() {
    return true;
  }

  @Override
  public boolean invertKey() {
    return false;
  }

  @Override
  public int compare(RowData a, RowData b) {
    return 0;
  }
}
