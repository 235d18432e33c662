package dev.mortar.writer.it;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.nio.file.AccessDeniedException;
import java.util.concurrent.atomic.AtomicLong;
import javax.annotation.Nullable;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.Syncable;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.util.Progressable;

/**
 * The local file system with the {@link Failures} points of the file layer: the creation of log and
 * base files, the bytes written to them, the renames that publish delta commit and compaction
 * commit files, the cleaner's deletes, the archiver's files and deletes (told apart by the names of
 * the service threads, {@code mortar-cleaner} and {@code mortar-archiver}); and a delay before each
 * base file is created ({@link #slowBaseFiles}), which makes compaction slow, or each log file
 * ({@link #slowLogFiles}), which makes flushes slow. And two faults of a disk under a folder: full
 * after so many bytes ({@link #fullAfter}: every write past them throws "No space left on device",
 * as the kernel's ENOSPC does) and read-only ({@link #readOnly}: creating a file throws {@link
 * AccessDeniedException}), until {@link #clearDiskFaults}. Installed for every test of this module
 * as {@code fs.file.impl} (test resource core-site.xml); unarmed and without delay it is the plain
 * local file system.
 */
public final class FaultyLocalFileSystem extends LocalFileSystem {
  private static volatile long baseFileDelayMillis;
  private static volatile long logFileDelayMillis;
  private static volatile String faultyFolder;
  private static volatile boolean faultyFolderReadOnly;
  private static final AtomicLong BYTES_LEFT = new AtomicLong();

  /** The disk under {@code folder} (a URI) takes {@code bytes} more bytes, then is full. */
  static void fullAfter(String folder, long bytes) {
    BYTES_LEFT.set(bytes);
    faultyFolderReadOnly = false;
    faultyFolder = new Path(folder).toUri().getPath();
  }

  /** No file can be created under {@code folder} (a URI). */
  static void readOnly(String folder) {
    faultyFolderReadOnly = true;
    faultyFolder = new Path(folder).toUri().getPath();
  }

  static void clearDiskFaults() {
    faultyFolder = null;
  }

  /** Every base file created from now on waits {@code millis} first (0: none). */
  static void slowBaseFiles(long millis) {
    baseFileDelayMillis = millis;
  }

  /** Every log file created from now on waits {@code millis} first (0: none). */
  static void slowLogFiles(long millis) {
    logFileDelayMillis = millis;
  }

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
    String folder = faultyFolder;
    boolean faulty = folder != null && path.toUri().getPath().startsWith(folder);
    if (faulty && faultyFolderReadOnly) {
      throw new AccessDeniedException(path.toUri().getPath(), null, "Permission denied");
    }
    String name = path.getName();
    Failures.Point bytes;
    if (name.contains(".log.")) {
      Failures.count(Failures.Point.LOG_CREATE, 1, name);
      delay(logFileDelayMillis, name);
      bytes = Failures.Point.LOG_BYTES;
    } else if (path.getParent().getName().equals("history")) {
      Failures.count(Failures.Point.ARCHIVE_CREATE, 1, name);
      bytes = null;
    } else if (name.endsWith(".parquet")) {
      Failures.count(Failures.Point.BASE_FILE_CREATE, 1, name);
      delay(baseFileDelayMillis, name);
      bytes = Failures.Point.BASE_FILE_BYTES;
    } else {
      bytes = null;
    }
    FSDataOutputStream out =
        super.create(path, permission, overwrite, bufferSize, replication, blockSize, progress);
    return bytes == null && !faulty
        ? out
        : new FSDataOutputStream(new FaultyStream(out, bytes, name, faulty), null);
  }

  private static void delay(long millis, String file) throws IOException {
    if (millis > 0) {
      try {
        Thread.sleep(millis);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted while delaying the creation of " + file);
      }
    }
  }

  @Override
  public boolean delete(Path path, boolean recursive) throws IOException {
    String thread = Thread.currentThread().getName();
    if (thread.startsWith("mortar-cleaner")) {
      Failures.count(Failures.Point.CLEAN_DELETE, 1, path.getName());
    } else if (thread.startsWith("mortar-archiver")
        && path.getParent().getName().equals("timeline")) {
      Failures.count(Failures.Point.ARCHIVE_DELETE, 1, path.getName());
    }
    return super.delete(path, recursive);
  }

  @Override
  public boolean rename(Path source, Path target) throws IOException {
    String name = target.getName();
    if (name.endsWith(".deltacommit")) {
      Failures.count(Failures.Point.COMMIT_PUBLISH, 1, name);
    } else if (name.endsWith(".commit")) {
      Failures.count(Failures.Point.COMPACTION_COMMIT_PUBLISH, 1, name);
    }
    return super.rename(source, target);
  }

  /**
   * The stream of one file: counts its bytes against a bytes point of {@link Failures} (when it has
   * one) and, on the faulty disk, throws "No space left on device" once the disk's bytes are used
   * up.
   */
  private static final class FaultyStream extends OutputStream implements Syncable {
    private final FSDataOutputStream out;
    @Nullable private final Failures.Point point;
    private final String name;
    private final boolean onFaultyDisk;

    FaultyStream(
        FSDataOutputStream out, @Nullable Failures.Point point, String name, boolean onFaultyDisk) {
      this.out = out;
      this.point = point;
      this.name = name;
      this.onFaultyDisk = onFaultyDisk;
    }

    @Override
    public void write(int b) throws IOException {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      if (point != null) {
        Failures.count(point, len, name);
      }
      if (onFaultyDisk
          && faultyFolder != null
          && !faultyFolderReadOnly
          && BYTES_LEFT.addAndGet(-len) < 0) {
        throw new IOException("No space left on device");
      }
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
