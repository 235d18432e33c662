package dev.mortar.logformat;

import java.io.IOException;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.PositionOutputStream;

/**
 * A Parquet {@link OutputFile} created on a given Hadoop file system, never over an existing one.
 */
final class FileSystemOutputFile implements OutputFile {
  private final FileSystem fs;
  private final Path path;

  FileSystemOutputFile(FileSystem fs, Path path) {
    this.fs = fs;
    this.path = path;
  }

  @Override
  public PositionOutputStream create(long blockSizeHint) throws IOException {
    FSDataOutputStream out = fs.create(path, false);
    return new PositionOutputStream() {
      @Override
      public long getPos() throws IOException {
        return out.getPos();
      }

      @Override
      public void write(int b) throws IOException {
        out.write(b);
      }

      @Override
      public void write(byte[] bytes, int offset, int length) throws IOException {
        out.write(bytes, offset, length);
      }

      @Override
      public void flush() throws IOException {
        out.flush();
      }

      @Override
      public void close() throws IOException {
        out.close();
      }
    };
  }

  @Override
  public PositionOutputStream createOrOverwrite(long blockSizeHint) throws IOException {
    throw new IOException("not overwriting " + path + ": base files are created once");
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
