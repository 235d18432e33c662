package dev.mortar.logformat;

import java.io.IOException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.hadoop.util.HadoopStreams;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.PositionOutputStream;

/**
 * A Parquet {@link OutputFile} created on a given Hadoop file system, never over an existing one:
 * base files and the archived timeline's files are each created once.
 */
public final class FileSystemOutputFile implements OutputFile {
  private final FileSystem fs;
  private final Path path;

  public FileSystemOutputFile(FileSystem fs, Path path) {
    this.fs = fs;
    this.path = path;
  }

  @Override
  public PositionOutputStream create(long blockSizeHint) throws IOException {
    return HadoopStreams.wrap(fs.create(path, false));
  }

  @Override
  public PositionOutputStream createOrOverwrite(long blockSizeHint) throws IOException {
    throw new IOException("not overwriting " + path + ": the file is created once");
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
