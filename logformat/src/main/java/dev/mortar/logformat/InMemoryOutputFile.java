package dev.mortar.logformat;

import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.PositionOutputStream;

/**
 * A Parquet {@link OutputFile} that writes into a reusable {@link BlockBuffer} (reset on create).
 */
public final class InMemoryOutputFile implements OutputFile {
  private final BlockBuffer buffer;

  public InMemoryOutputFile(BlockBuffer buffer) {
    this.buffer = buffer;
  }

  @Override
  public PositionOutputStream create(long blockSizeHint) {
    buffer.reset();
    return new PositionOutputStream() {
      @Override
      public long getPos() {
        return buffer.size();
      }

      @Override
      public void write(int b) {
        buffer.writeByte(b);
      }

      @Override
      public void write(byte[] bytes, int offset, int length) {
        buffer.writeBytes(bytes, offset, length);
      }
    };
  }

  @Override
  public PositionOutputStream createOrOverwrite(long blockSizeHint) {
    return create(blockSizeHint);
  }

  @Override
  public boolean supportsBlockSize() {
    return false;
  }

  @Override
  public long defaultBlockSize() {
    return 0;
  }
}
