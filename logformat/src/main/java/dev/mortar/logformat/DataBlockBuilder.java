package dev.mortar.logformat;

import java.io.IOException;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinaryStringData;

/** Accumulates the records of one data block and produces its content (§9.1 / §9.2). */
public interface DataBlockBuilder {
  /** Adds a record; {@code seqCounter} is its sequence counter (used only with meta fields). */
  void add(BinaryStringData recordKey, long seqCounter, BinaryRowData row) throws IOException;

  /** Records added since the last {@link #finishBlock()}. */
  int recordCount();

  /** Encoded bytes so far: the block is cut once this reaches the maximum block size. */
  long bufferedBytes();

  /**
   * Completes the block and returns its content. The buffer stays owned by the builder and is valid
   * until the next {@link #add}; afterwards the builder starts a new block.
   */
  BlockBuffer finishBlock() throws IOException;
}
