package dev.mortar.writer.table;

import java.io.File;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.util.UUID;
import java.util.regex.Pattern;
import javax.annotation.Nullable;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;

/**
 * Publishes a file all at once: the content goes to a uniquely named file in a temp directory,
 * which is then renamed to the target. A reader sees no file or the whole file, never a prefix: on
 * HDFS and local disks the rename is atomic; on S3A it is a server-side copy of the whole object
 * followed by a delete of the temp object (rfc/0004, "Object storage").
 */
final class AtomicFile {
  /** Writes the content of a file to a stream. */
  @FunctionalInterface
  interface Content {
    void writeTo(OutputStream out) throws IOException;
  }

  private static final String TEMP_SUFFIX = ".tmp";

  /** {@code <target name>.<random UUID>.tmp}. */
  private static final Pattern TEMP_NAME =
      Pattern.compile(".+\\.\\p{XDigit}{8}(-\\p{XDigit}{4}){3}-\\p{XDigit}{12}\\.tmp");

  private AtomicFile() {}

  /** Keeps the file open when content writers (Avro's DataFileWriter) close their stream. */
  private static final class UnclosableStream extends FilterOutputStream {
    UnclosableStream(OutputStream out) {
      super(out);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      out.write(b, off, len);
    }

    @Override
    public void close() throws IOException {
      flush();
    }
  }

  /**
   * Writes {@code target} through a temp file in {@code tempDir}.
   *
   * @return false if the rename did not happen because {@code target} already exists (HDFS, S3A;
   *     the temp file is removed); true once {@code target} holds the content
   */
  static boolean publish(FileSystem fs, Path tempDir, Path target, Content content)
      throws IOException {
    Path temp = writeTemp(fs, tempDir, target, content);
    if (renamed(fs, temp, target)) {
      return true;
    }
    return gaveWay(fs, temp, target);
  }

  /**
   * Writes {@code target} through a temp file in {@code tempDir}, only if no file of that name
   * exists: of two processes that create the same target at once, exactly one succeeds. On the
   * local disk, where a rename replaces an existing target, the temp file is hard-linked to the
   * target (link(2) fails if it exists); on HDFS the rename is the namenode's atomic check; on S3A
   * the rename checks for the target before it copies, so two creates within that moment may both
   * succeed, the later copy winning (rfc/0004, "The writer lease").
   *
   * @return false if {@code target} already exists (the temp file is removed)
   */
  static boolean createNew(FileSystem fs, Path tempDir, Path target, Content content)
      throws IOException {
    Path temp = writeTemp(fs, tempDir, target, content);
    File localTemp = localFile(fs, temp);
    if (localTemp == null) {
      return renamed(fs, temp, target) || gaveWay(fs, temp, target);
    }
    try {
      Files.createLink(localFile(fs, target).toPath(), localTemp.toPath());
      return true;
    } catch (java.nio.file.FileAlreadyExistsException exists) {
      return false;
    } finally {
      fs.delete(temp, false);
    }
  }

  /**
   * Deletes the temp files in {@code tempDir} that publishes left behind (their process died
   * between writing and renaming; on S3A also between the copy and the delete of a rename) and that
   * are older than {@code cutoffMillis}; nothing else in the folder is touched.
   *
   * @return the files deleted
   */
  static int deleteLeftovers(FileSystem fs, Path tempDir, long cutoffMillis) throws IOException {
    if (!fs.exists(tempDir)) {
      return 0;
    }
    int deleted = 0;
    for (FileStatus status : fs.listStatus(tempDir)) {
      if (status.isFile()
          && TEMP_NAME.matcher(status.getPath().getName()).matches()
          && status.getModificationTime() < cutoffMillis
          && fs.delete(status.getPath(), false)) {
        deleted++;
      }
    }
    return deleted;
  }

  private static Path writeTemp(FileSystem fs, Path tempDir, Path target, Content content)
      throws IOException {
    Path temp = new Path(tempDir, target.getName() + "." + UUID.randomUUID() + TEMP_SUFFIX);
    try (FSDataOutputStream out = fs.create(temp, false)) {
      content.writeTo(new UnclosableStream(out));
      out.hsync();
    }
    fs.mkdirs(target.getParent());
    return temp;
  }

  /** After a rename that did not happen: false if the target exists, else the rename failed. */
  private static boolean gaveWay(FileSystem fs, Path temp, Path target) throws IOException {
    fs.delete(temp, false);
    if (fs.exists(target)) {
      return false;
    }
    throw new IOException("could not rename " + temp + " to " + target);
  }

  @Nullable
  private static File localFile(FileSystem fs, Path path) {
    if (fs instanceof LocalFileSystem local) {
      return local.pathToFile(path);
    }
    if (fs instanceof RawLocalFileSystem raw) {
      return raw.pathToFile(path);
    }
    return null;
  }

  /**
   * Renames {@code temp} to {@code target}; false if it did not happen. HDFS returns false when
   * {@code target} exists, S3A throws {@link FileAlreadyExistsException}; Hadoop's local file
   * system replaces it (so only {@link #createNew} is exclusive there).
   */
  private static boolean renamed(FileSystem fs, Path temp, Path target) throws IOException {
    try {
      return fs.rename(temp, target);
    } catch (FileAlreadyExistsException exists) {
      return false;
    }
  }
}
