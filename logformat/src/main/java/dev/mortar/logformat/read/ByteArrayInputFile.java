package dev.mortar.logformat.read;

import java.io.ByteArrayInputStream;
import java.io.EOFException;
import org.apache.parquet.io.DelegatingSeekableInputStream;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.SeekableInputStream;

/** A range of a byte array as a Parquet {@link InputFile} (a PARQUET_DATA_BLOCK's content). */
final class ByteArrayInputFile implements InputFile {
  private final byte[] bytes;
  private final int offset;
  private final int length;

  ByteArrayInputFile(byte[] bytes, int offset, int length) {
    this.bytes = bytes;
    this.offset = offset;
    this.length = length;
  }

  @Override
  public long getLength() {
    return length;
  }

  @Override
  public SeekableInputStream newStream() {
    RangeStream range = new RangeStream();
    return new DelegatingSeekableInputStream(range) {
      @Override
      public long getPos() {
        return range.position();
      }

      @Override
      public void seek(long newPos) throws EOFException {
        range.seek(newPos);
      }
    };
  }

  /** The range as a stream whose position can be read and set. */
  private final class RangeStream extends ByteArrayInputStream {
    RangeStream() {
      super(bytes, offset, length);
    }

    long position() {
      return pos - offset;
    }

    void seek(long newPos) throws EOFException {
      if (newPos < 0 || newPos > length) {
        throw new EOFException("seek to " + newPos + " in a Parquet file of " + length + " bytes");
      }
      pos = offset + (int) newPos;
    }
  }
}
