package dev.mortar.writer.compaction;

import dev.mortar.serde.Operation;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import org.apache.flink.core.memory.DataOutputViewStreamWrapper;
import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.core.memory.MemorySegmentFactory;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinarySegmentUtils;
import org.apache.flink.table.data.binary.BinaryStringData;

/**
 * Log records of one key share, written once to a local file in the order they were read and read
 * back in that order, so a share's records keep the order that decides between equal ordering
 * values. One record:
 *
 * <pre>
 *   int    length of what follows the ordering value
 *   byte   0 = an upsert (then the stored row's bytes), 1 = a delete (then the key's UTF-8 bytes)
 *   long   the ordering value
 *   byte[] the row or the key
 * </pre>
 *
 * Written by one thread, read by it after {@link #finishWriting()}; {@link #delete()} removes the
 * file whatever its state.
 */
final class SpillFile {
  private static final int BUFFER_BYTES = 1 << 16;
  private static final byte UPSERT = 0;
  private static final byte DELETE = 1;

  /** Receives the records of a spill file, in the order they were written. */
  interface Reader {
    /**
     * @param key the record's key, valid until the next call
     * @param row the stored row of an upsert, valid until the next call; null for a delete
     */
    void record(Operation operation, long orderingValue, BinaryStringData key, BinaryRowData row)
        throws IOException;
  }

  private final File file;
  private final int rowArity;
  private final int keyField;
  private DataOutputViewStreamWrapper out;
  private long records;

  private SpillFile(File file, int rowArity, int keyField) throws IOException {
    this.file = file;
    this.rowArity = rowArity;
    this.keyField = keyField;
    this.out =
        new DataOutputViewStreamWrapper(
            new BufferedOutputStream(Files.newOutputStream(file.toPath()), BUFFER_BYTES));
  }

  /**
   * A new, empty spill file in {@code dir} for rows of {@code rowArity} fields whose key is field
   * {@code keyField}.
   */
  static SpillFile create(File dir, int rowArity, int keyField) throws IOException {
    Files.createDirectories(dir.toPath());
    File file = File.createTempFile("mortar-compaction-", ".spill", dir);
    try {
      return new SpillFile(file, rowArity, keyField);
    } catch (IOException e) {
      Files.deleteIfExists(file.toPath());
      throw e;
    }
  }

  void writeUpsert(long orderingValue, BinaryRowData row) throws IOException {
    write(UPSERT, orderingValue, row.getSegments(), row.getOffset(), row.getSizeInBytes());
  }

  void writeDelete(long orderingValue, BinaryStringData key) throws IOException {
    write(DELETE, orderingValue, key.getSegments(), key.getOffset(), key.getSizeInBytes());
  }

  private void write(byte kind, long orderingValue, MemorySegment[] bytes, int offset, int length)
      throws IOException {
    out.writeInt(length);
    out.writeByte(kind);
    out.writeLong(orderingValue);
    BinarySegmentUtils.copyToView(bytes, offset, length, out);
    records++;
  }

  /** The records written. */
  long records() {
    return records;
  }

  void finishWriting() throws IOException {
    out.close();
    out = null;
  }

  /** Reads every record back, in order. */
  void read(Reader reader) throws IOException {
    byte[] bytes = new byte[256];
    MemorySegment segment = MemorySegmentFactory.wrap(bytes);
    MemorySegment[] segments = {segment};
    BinaryRowData row = new BinaryRowData(rowArity);
    try (DataInputStream in =
        new DataInputStream(
            new BufferedInputStream(Files.newInputStream(file.toPath()), BUFFER_BYTES))) {
      for (long i = 0; i < records; i++) {
        int length = in.readInt();
        byte kind = in.readByte();
        long orderingValue = in.readLong();
        if (length > bytes.length) {
          bytes = new byte[Math.max(length, 2 * bytes.length)];
          segments[0] = MemorySegmentFactory.wrap(bytes);
        }
        in.readFully(bytes, 0, length);
        if (kind == UPSERT) {
          row.pointTo(segments, 0, length);
          reader.record(
              Operation.UPDATE, orderingValue, (BinaryStringData) row.getString(keyField), row);
        } else {
          BinaryStringData key = BinaryStringData.fromAddress(segments, 0, length);
          reader.record(Operation.DELETE, orderingValue, key, null);
        }
      }
      if (in.read() != -1) {
        throw new IOException(
            "spill file " + file + " holds more than its " + records + " records");
      }
    } catch (EOFException e) {
      throw new IOException("spill file " + file + " ends before its " + records + " records", e);
    }
  }

  @Override
  public String toString() {
    return file.toString();
  }

  /** Closes and removes the file. */
  void delete() throws IOException {
    if (out != null) {
      out.close();
      out = null;
    }
    Files.deleteIfExists(file.toPath());
  }
}
