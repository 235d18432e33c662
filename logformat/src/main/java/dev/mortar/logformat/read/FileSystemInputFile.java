package dev.mortar.logformat.read;

import java.io.IOException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.hadoop.util.HadoopStreams;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.SeekableInputStream;

/** A Parquet {@link InputFile} read through a given Hadoop file system. */
public final class FileSystemInputFile implements InputFile {
  private final FileSystem fs;
  private final Path path;
  private final long length;

  public FileSystemInputFile(FileSystem fs, Path path) throws IOException {
    this.fs = fs;
    this.path = path;
    this.length = fs.getFileStatus(path).getLen();
  }

  @Override
  public long getLength() {
    return length;
  }

  @Override
  public SeekableInputStream newStream() throws IOException {
    return HadoopStreams.wrap(fs.open(path));
  }

  @Override
  public String toString() {
    return path.toString();
  }
}
