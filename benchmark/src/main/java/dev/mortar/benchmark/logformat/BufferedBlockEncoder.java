package dev.mortar.benchmark.logformat;

import dev.mortar.logformat.BlockBuffer;
import java.io.IOException;
import java.util.Arrays;

/**
 * A {@link ParquetBlockContender.Encoder} that writes every block into one reused buffer, from its
 * start; the buffer holds the last block until the next one is written.
 */
abstract class BufferedBlockEncoder implements ParquetBlockContender.Encoder {
  /** The last block written; grows as needed. */
  final BlockBuffer content = new BlockBuffer(1 << 20);

  /** Writes all rows of the input as one block into {@link #content}, from its start. */
  abstract void writeBlock() throws IOException;

  @Override
  public final int encodeBlock() throws IOException {
    writeBlock();
    return content.size();
  }

  @Override
  public final byte[] lastBlock() {
    return Arrays.copyOf(content.array(), content.size());
  }
}
