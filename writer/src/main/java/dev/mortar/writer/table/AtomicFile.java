package dev.mortar.writer.table;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.UUID;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

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
   * @return false if the rename did not happen because {@code target} already exists (the temp file
   *     is removed); true once {@code target} holds the content
   */
  static boolean publish(FileSystem fs, Path tempDir, Path target, Content content)
      throws IOException {
    Path temp = new Path(tempDir, target.getName() + "." + UUID.randomUUID() + ".tmp");
    try (FSDataOutputStream out = fs.create(temp, false)) {
      content.writeTo(new UnclosableStream(out));
      out.hsync();
    }
    fs.mkdirs(target.getParent());
    if (renamed(fs, temp, target)) {
      return true;
    }
    fs.delete(temp, false);
    if (fs.exists(target)) {
      return false;
    }
    throw new IOException("could not rename " + temp + " to " + target);
  }

  /**
   * Renames {@code temp} to {@code target}; false if it did not happen. HDFS and the local file
   * system return false when {@code target} exists, S3A throws {@link FileAlreadyExistsException}.
   */
  private static boolean renamed(FileSystem fs, Path temp, Path target) throws IOException {
    try {
      return fs.rename(temp, target);
    } catch (FileAlreadyExistsException exists) {
      return false;
    }
  }
}
