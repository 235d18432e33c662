package dev.mortar.writer.it;

import java.io.IOException;
import java.io.OutputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.Syncable;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.util.Progressable;

/**
 * The local file system with the {@link Failures} points of the file layer: log file creation, log
 * bytes written, and the rename that publishes a commit file. Installed for every test of this
 * module as {@code fs.file.impl} (test resource core-site.xml); unarmed it is the plain local file
 * system.
 */
public final class FaultyLocalFileSystem extends LocalFileSystem {
  @Override
  public FSDataOutputStream create(
      Path path,
      FsPermission permission,
      boolean overwrite,
      int bufferSize,
      short replication,
      long blockSize,
      Progressable progress)
      throws IOException {
    boolean logFile = path.getName().contains(".log.");
    if (logFile) {
      Failures.count(Failures.Point.LOG_CREATE, 1);
    }
    FSDataOutputStream out =
        super.create(path, permission, overwrite, bufferSize, replication, blockSize, progress);
    return logFile ? new FSDataOutputStream(new CountingStream(out), null) : out;
  }

  @Override
  public boolean rename(Path source, Path target) throws IOException {
    if (target.getName().endsWith(".deltacommit")) {
      Failures.count(Failures.Point.COMMIT_PUBLISH, 1);
    }
    return super.rename(source, target);
  }

  /** Counts log bytes against {@link Failures.Point#LOG_BYTES}. */
  private static final class CountingStream extends OutputStream implements Syncable {
    private final FSDataOutputStream out;

    CountingStream(FSDataOutputStream out) {
      this.out = out;
    }

    @Override
    public void write(int b) throws IOException {
      Failures.count(Failures.Point.LOG_BYTES, 1);
      out.write(b);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      Failures.count(Failures.Point.LOG_BYTES, len);
      out.write(b, off, len);
    }

    @Override
    public void flush() throws IOException {
      out.flush();
    }

    @Override
    public void hflush() throws IOException {
      out.hflush();
    }

    @Override
    public void hsync() throws IOException {
      out.hsync();
    }

    @Override
    public void close() throws IOException {
      out.close();
    }
  }
}
