package dev.mortar.logformat.read;

import org.apache.flink.table.data.writer.BinaryWriter;

/**
 * Where a converter puts a value it decoded: a field of the row being built, or the next element of
 * the array or map being collected. A converter first claims the position, then writes at it with
 * {@link #writer()}; claiming may replace the writer (a collection grows), so it comes first.
 */
interface Slot {
  /** Claims the position of the value about to be written and returns it. */
  int claim();

  /** The writer of the claimed position. */
  BinaryWriter writer();
}
