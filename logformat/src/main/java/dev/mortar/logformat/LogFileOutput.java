package dev.mortar.logformat;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;

/**
 * One new log file being written, front to back. Its bytes are durable only after {@link
 * #syncAndClose()}; {@link #close()} abandons the file as it is.
 */
abstract class LogFileOutput extends OutputStream {
  /**
   * Creates {@code path}, failing with Hadoop's {@code FileAlreadyExistsException} (or, on HDFS,
   * the lease error of a file still being written) when it exists. On the local file system and
   * with {@code directIo}, the file is written with direct I/O ({@link DirectLogFileOutput}) when
   * the disk supports it; otherwise through {@code fs}. Missing parent directories are created.
   */
  static LogFileOutput create(FileSystem fs, Path path, boolean directIo, int bufferBytes)
      throws IOException {
    if (directIo) {
      File local = localFile(fs, path);
      if (local != null && fs.mkdirs(path.getParent())) {
        LogFileOutput direct = DirectLogFileOutput.createIfSupported(local);
        if (direct != null) {
          return direct;
        }
      }
    }
    return new HadoopLogFileOutput(fs.create(path, false, bufferBytes));
  }

  /** Forces the file's bytes and size to the disk, then closes it. */
  abstract void syncAndClose() throws IOException;

  /**
   * The local file behind {@code path} when {@code fs} is exactly Hadoop's local file system; a
   * subclass (one that counts or injects failures, say) keeps its own write path.
   */
  private static File localFile(FileSystem fs, Path path) {
    if (fs.getClass() == LocalFileSystem.class) {
      return ((LocalFileSystem) fs).pathToFile(path);
    }
    if (fs.getClass() == RawLocalFileSystem.class) {
      return ((RawLocalFileSystem) fs).pathToFile(path);
    }
    return null;
  }
}
