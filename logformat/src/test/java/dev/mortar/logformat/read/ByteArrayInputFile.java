package dev.mortar.logformat.read;

import java.io.ByteArrayInputStream;
import org.apache.parquet.io.DelegatingSeekableInputStream;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.SeekableInputStream;

/** A Parquet {@link InputFile} over a byte array, named for error messages. */
final class ByteArrayInputFile implements InputFile {
  private final String name;
  private final byte[] bytes;
  private final int length;

  ByteArrayInputFile(String name, byte[] bytes, int length) {
    this.name = name;
    this.bytes = bytes;
    this.length = length;
  }

  @Override
  public long getLength() {
    return length;
  }

  @Override
  public SeekableInputStream newStream() {
    Positioned in = new Positioned(bytes, length);
    return new DelegatingSeekableInputStream(in) {
      @Override
      public long getPos() {
        return in.position();
      }

      @Override
      public void seek(long newPos) {
        in.seek((int) newPos);
      }
    };
  }

  @Override
  public String toString() {
    return name;
  }

  private static final class Positioned extends ByteArrayInputStream {
    Positioned(byte[] bytes, int length) {
      super(bytes, 0, length);
    }

    int position() {
      return pos;
    }

    void seek(int position) {
      pos = position;
    }
  }
}
