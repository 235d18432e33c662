package dev.mortar.benchmark.buffer;

import dev.mortar.buffer.BucketBuffer;
import dev.mortar.buffer.BufferCursor;
import java.io.IOException;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.runtime.operators.sort.BinaryInMemorySortBuffer;
import org.apache.flink.util.MutableObjectIterator;
import org.openjdk.jmh.infra.Blackhole;

/**
 * How the buffer benchmarks read a buffer back, as a flush does: every record it yields goes to a
 * {@link Blackhole}. Mortar's cursor yields key and row; Flink's sort buffer (baseline (c)) yields
 * the row.
 */
final class BufferReads {
  private BufferReads() {}

  static void readAll(BucketBuffer buffer, Blackhole blackhole) {
    BufferCursor cursor = buffer.cursor();
    while (cursor.next()) {
      blackhole.consume(cursor.key());
      blackhole.consume(cursor.row());
    }
  }

  /** Reads {@code buffer} with the reused row {@code reuse}. */
  static void readAll(BinaryInMemorySortBuffer buffer, BinaryRowData reuse, Blackhole blackhole)
      throws IOException {
    MutableObjectIterator<BinaryRowData> iterator = buffer.getIterator();
    BinaryRowData next;
    while ((next = iterator.next(reuse)) != null) {
      blackhole.consume(next);
    }
  }
}
