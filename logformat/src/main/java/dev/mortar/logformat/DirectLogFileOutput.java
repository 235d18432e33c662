package dev.mortar.logformat;

import static java.nio.file.StandardOpenOption.CREATE_NEW;
import static java.nio.file.StandardOpenOption.WRITE;

import com.sun.nio.file.ExtendedOpenOption;
import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.annotation.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A local log file written with direct I/O ({@code O_DIRECT}): the bytes go to the disk without
 * being copied into the kernel's page cache, which is most of the system CPU a buffered write costs
 * (rfc/0003, "Writing the bytes", has the measurements); the written file is not kept in memory,
 * which a write-once log file does not need.
 *
 * <p>Direct I/O wants every write to start at a multiple of the file system's block size and to be
 * a multiple of it long, from memory aligned the same way. Bytes collect in a native staging buffer
 * of whole blocks, written when full (the writing thread's {@link StagingBuffers}, reused from file
 * to file and given back at close; a write after close fails). At the end the last, partial block
 * is padded with zeros and written, and the file is truncated to its real length. The file has no
 * Hadoop {@code .crc} side file: Hadoop's local file system reads a file without one unchecked, as
 * Hudi's reader does here.
 */
final class DirectLogFileOutput extends LogFileOutput {
  private static final Logger LOG = LoggerFactory.getLogger(DirectLogFileOutput.class);
  private static final AtomicBoolean WARNED = new AtomicBoolean();
  static final int STAGE_BYTES = StagingBuffers.STAGE_BYTES;

  private final File file;
  private final FileChannel channel;
  private final int blockSize;
  private final StagingBuffers.Stage staging;
  private final ByteBuffer stage;
  private long written;
  private boolean closed;

  private DirectLogFileOutput(File file, FileChannel channel, int blockSize) {
    this.file = file;
    this.channel = channel;
    this.blockSize = blockSize;
    this.staging = StagingBuffers.take();
    this.stage = staging.bytes();
  }

  /**
   * Creates {@code file} for direct writing, or returns {@code null} when its file system refuses
   * direct I/O (tmpfs, for one), leaving no file behind.
   *
   * @throws org.apache.hadoop.fs.FileAlreadyExistsException when the file exists
   */
  @Nullable
  static DirectLogFileOutput createIfSupported(File file) throws IOException {
    return createIfSupported(
        file, path -> FileChannel.open(path, CREATE_NEW, WRITE, ExtendedOpenOption.DIRECT));
  }

  /** How a file is opened for direct writing; tests stand in a file system that refuses. */
  @FunctionalInterface
  interface DirectOpener {
    FileChannel open(Path path) throws IOException;
  }

  @Nullable
  static DirectLogFileOutput createIfSupported(File file, DirectOpener opener) throws IOException {
    Path path = file.toPath();
    FileChannel channel;
    try {
      channel = opener.open(path);
    } catch (FileAlreadyExistsException exists) {
      throw new org.apache.hadoop.fs.FileAlreadyExistsException(file + " already exists");
    } catch (IOException | UnsupportedOperationException refused) {
      // Some file systems refuse O_DIRECT only after creating the file: take back the empty file.
      if (Files.isRegularFile(path) && Files.size(path) == 0) {
        Files.delete(path);
      }
      if (WARNED.compareAndSet(false, true)) {
        LOG.warn("No direct I/O for {} ({}): log files go through the page cache.", file, refused);
      }
      return null;
    }
    return new DirectLogFileOutput(file, channel, blockSize(path));
  }

  @Override
  public void write(int b) throws IOException {
    checkOpen();
    if (!stage.hasRemaining()) {
      writeStage();
    }
    stage.put((byte) b);
  }

  @Override
  public void write(byte[] bytes, int offset, int length) throws IOException {
    checkOpen();
    while (length > 0) {
      int chunk = Math.min(length, stage.remaining());
      stage.put(bytes, offset, chunk);
      offset += chunk;
      length -= chunk;
      if (!stage.hasRemaining()) {
        writeStage();
      }
    }
  }

  @Override
  void syncAndClose() throws IOException {
    finish(true);
  }

  @Override
  public void close() throws IOException {
    finish(false);
  }

  private void finish(boolean sync) throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    try (channel) {
      writeTail();
      if (sync) {
        channel.force(true);
      }
    } finally {
      StagingBuffers.giveBack(staging);
    }
  }

  private void checkOpen() throws IOException {
    if (closed) {
      throw new IOException(
          file + " written after it was closed (its staging buffer is given back)");
    }
  }

  /** Writes the last, partial block padded with zeros, then cuts the padding off the file. */
  private void writeTail() throws IOException {
    int tail = stage.position();
    if (tail == 0) {
      return;
    }
    long length = written + tail;
    int padded = (tail + blockSize - 1) / blockSize * blockSize;
    while (stage.position() < padded) {
      stage.put((byte) 0);
    }
    stage.limit(padded);
    writeStage();
    channel.truncate(length);
  }

  /** Writes the staged bytes (whole blocks) at the end of the file and empties the stage. */
  private void writeStage() throws IOException {
    stage.flip();
    while (stage.hasRemaining()) {
      written += channel.write(stage, written);
    }
    stage.clear().limit(STAGE_BYTES);
  }

  private static int blockSize(Path path) {
    try {
      long size = Files.getFileStore(path).getBlockSize();
      if (size > 0 && size <= STAGE_BYTES && Long.bitCount(size) == 1) {
        return (int) size;
      }
    } catch (IOException | UnsupportedOperationException unknown) {
      // fall through to the common block size
    }
    return StagingBuffers.MEMORY_ALIGNMENT;
  }
}
