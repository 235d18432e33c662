package dev.mortar.logformat.read;

import dev.mortar.logformat.LogBlockLayout;
import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import org.apache.flink.table.types.logical.RowType;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Reads the log files {@link dev.mortar.logformat.LogFileWriter} writes, block by block in one
 * sequential pass, and gives their records to a {@link LogRecordSink}: data records as stored rows
 * ({@link StoredRowType}), deletes with their ordering values. It is the writer's inverse and as
 * strict: the framing of every block is checked as {@link LogBlockLayout} draws it (magic, log
 * format version 1, block length against the header, content and footer, reverse pointer {@code L +
 * 6}), and a data block's SCHEMA header must be the schema Mortar writes for the table's row type,
 * or for its first columns when the table has since gained nullable columns at its end (the block's
 * rows then read with those columns null). Command blocks (rollbacks) and HFILE or CDC blocks are
 * refused. Every error names the file and the offset of the block.
 *
 * <p>A block's content is read whole into one reused array, which grows to the largest block; the
 * records are given to the sink once the block's framing has been checked. A reader is reused
 * across files, by one thread at a time.
 */
public final class LogFileReader {
  private static final int READ_BUFFER_BYTES = 64 * 1024;

  /** Bytes before the block length: the magic and the length itself. */
  private static final int LENGTH_END = LogBlockLayout.MAGIC.length + 8;

  /**
   * The least block length L: version, type, empty header, content length, empty footer, pointer.
   */
  private static final long MIN_BLOCK_LENGTH = 4 + 4 + 4 + 8 + LogBlockLayout.SUFFIX_SIZE;

  private final RowType storedType;

  /** Avro decoders by the data columns a block holds ({@link BlockSchemaCheck#writtenType}). */
  private final Map<RowType, AvroRowDecoder> rowDecoders = new HashMap<>();

  private final ParquetRowReader parquetReader;
  private final DeleteBlockDecoder deleteDecoder = new DeleteBlockDecoder();
  private final BlockSchemaCheck schemaCheck;
  private byte[] content = new byte[READ_BUFFER_BYTES];

  /** A reader of the log files of a table whose data columns are {@code dataType}. */
  public LogFileReader(RowType dataType) {
    this.storedType = StoredRowType.of(dataType);
    this.parquetReader = new ParquetRowReader(storedType);
    this.schemaCheck = new BlockSchemaCheck(dataType);
  }

  /** Reads every block of {@code logFile} in file order, giving its records to {@code sink}. */
  public LogFileRead read(FileSystem fs, Path logFile, LogRecordSink sink) throws IOException {
    return read(fs, logFile, sink, KeyFilter.ALL);
  }

  /**
   * {@link #read(FileSystem, Path, LogRecordSink)}, giving {@code sink} only the records (rows and
   * deletes) whose key {@code keys} accepts; the counts of the result are the file's all the same.
   */
  public LogFileRead read(FileSystem fs, Path logFile, LogRecordSink sink, KeyFilter keys)
      throws IOException {
    long fileLength = fs.getFileStatus(logFile).getLen();
    try (FSDataInputStream raw = fs.open(logFile, READ_BUFFER_BYTES)) {
      DataInputStream in = new DataInputStream(new BufferedInputStream(raw, READ_BUFFER_BYTES));
      return new FileScan(logFile, fileLength, in, sink, keys).readAll();
    }
  }

  /** The decoder of Avro records written with {@code writtenDataType}'s data columns. */
  private AvroRowDecoder rowDecoder(RowType writtenDataType) {
    return rowDecoders.computeIfAbsent(
        writtenDataType, written -> new AvroRowDecoder(storedType, StoredRowType.of(written)));
  }

  /** The big-endian int32 at {@code position} of {@code bytes}. */
  static int bigEndianInt(byte[] bytes, int position) {
    return (bytes[position] & 0xFF) << 24
        | (bytes[position + 1] & 0xFF) << 16
        | (bytes[position + 2] & 0xFF) << 8
        | (bytes[position + 3] & 0xFF);
  }

  /** One pass over one file: the stream, the position in it and what was found so far. */
  private final class FileScan {
    private final Path file;
    private final long fileLength;
    private final DataInputStream in;
    private final LogRecordSink sink;
    private final KeyFilter keys;
    private long position;
    private long blockStart;
    private int dataBlocks;
    private int deleteBlocks;
    private long records;
    private long deletes;

    FileScan(Path file, long fileLength, DataInputStream in, LogRecordSink sink, KeyFilter keys) {
      this.file = file;
      this.fileLength = fileLength;
      this.in = in;
      this.sink = sink;
      this.keys = keys;
    }

    LogFileRead readAll() throws IOException {
      while (position < fileLength) {
        blockStart = position;
        try {
          readBlock();
        } catch (EOFException e) {
          throw corrupt("the file ends at byte " + position + ", inside the block", e);
        }
      }
      return new LogFileRead(dataBlocks, deleteBlocks, records, deletes, fileLength);
    }

    private void readBlock() throws IOException {
      if (fileLength - blockStart < LENGTH_END) {
        throw corrupt(
            "only "
                + (fileLength - blockStart)
                + " bytes are left in the file, a block starts with "
                + LENGTH_END
                + " (truncated file?)",
            null);
      }
      byte[] magic = readBytes(LogBlockLayout.MAGIC.length);
      if (!Arrays.equals(magic, LogBlockLayout.MAGIC)) {
        throw corrupt("expected the magic #HUDI#, found " + HexFormat.of().formatHex(magic), null);
      }
      long length = readLong();
      long blockEnd = blockStart + LENGTH_END + length;
      if (length < MIN_BLOCK_LENGTH || blockEnd > fileLength) {
        throw corrupt(
            "block length "
                + length
                + " would end the block at byte "
                + blockEnd
                + ", the file has "
                + fileLength
                + " bytes and a block at least "
                + (LENGTH_END + MIN_BLOCK_LENGTH)
                + " (truncated file?)",
            null);
      }
      int version = readInt();
      if (version != LogBlockLayout.LOG_FORMAT_VERSION) {
        throw corrupt(
            "log format version " + version + ", expected " + LogBlockLayout.LOG_FORMAT_VERSION,
            null);
      }
      int type = readInt();
      checkSupported(type);
      String schemaJson = readMap(blockEnd, "header");
      int contentLength = readContent(blockEnd);
      readMap(blockEnd, "footer");
      if (position != blockEnd - 8) {
        throw corrupt(
            "block length "
                + length
                + " puts the reverse pointer at byte "
                + (blockEnd - 8)
                + ", but the header, content and footer end at byte "
                + position,
            null);
      }
      long reversePointer = readLong();
      if (reversePointer != length + 6) {
        throw corrupt(
            "reverse pointer " + reversePointer + ", expected block length + 6 = " + (length + 6),
            null);
      }
      if (type == LogBlockLayout.DELETE_BLOCK) {
        deletes += decodeDeletes(contentLength);
        deleteBlocks++;
        return;
      }
      if (schemaJson == null) {
        throw corrupt("data block without a SCHEMA header", null);
      }
      RowType writtenDataType;
      try {
        writtenDataType = schemaCheck.writtenType(schemaJson);
      } catch (IOException mismatch) {
        throw corrupt(mismatch.getMessage(), null);
      }
      records +=
          type == LogBlockLayout.AVRO_DATA_BLOCK
              ? decodeAvroRecords(contentLength, rowDecoder(writtenDataType))
              : parquetReader.read(
                  new ByteArrayInputFile(content, 0, contentLength), sink::row, keys);
      dataBlocks++;
    }

    private void checkSupported(int type) throws IOException {
      switch (type) {
        case LogBlockLayout.AVRO_DATA_BLOCK:
        case LogBlockLayout.PARQUET_DATA_BLOCK:
        case LogBlockLayout.DELETE_BLOCK:
          return;
        case 0:
          throw corrupt(
              "command block (type 0, a rollback): Mortar does not write them and cannot apply"
                  + " them",
              null);
        default:
          throw corrupt(
              "block type "
                  + type
                  + ", expected "
                  + LogBlockLayout.AVRO_DATA_BLOCK
                  + " (Avro data), "
                  + LogBlockLayout.PARQUET_DATA_BLOCK
                  + " (Parquet data) or "
                  + LogBlockLayout.DELETE_BLOCK
                  + " (delete)",
              null);
      }
    }

    /** A header or footer map ({@code LogBlockLayout}); returns the SCHEMA entry if any. */
    private String readMap(long blockEnd, String which) throws IOException {
      int entries = readInt();
      if (entries < 0 || entries > (blockEnd - position) / 8) {
        throw corrupt(which + " of " + entries + " entries at byte " + (position - 4), null);
      }
      String schemaJson = null;
      for (int i = 0; i < entries; i++) {
        int key = readInt();
        int valueLength = readInt();
        if (valueLength < 0 || valueLength > blockEnd - position) {
          throw corrupt(
              which + " entry " + key + " of " + valueLength + " bytes runs past the block", null);
        }
        byte[] value = readBytes(valueLength);
        if (key == LogBlockLayout.HEADER_SCHEMA) {
          schemaJson = new String(value, StandardCharsets.UTF_8);
        }
      }
      return schemaJson;
    }

    /** Reads the content length and the content into {@link #content}; returns the length. */
    private int readContent(long blockEnd) throws IOException {
      long contentLength = readLong();
      long room = blockEnd - position - LogBlockLayout.SUFFIX_SIZE;
      if (contentLength < 0 || contentLength > room) {
        throw corrupt(
            "content length " + contentLength + ", but the block length leaves " + room + " bytes",
            null);
      }
      int length = (int) contentLength;
      if (length > content.length) {
        content =
            new byte[(int) Math.min(Integer.MAX_VALUE - 8, Math.max(length, 2L * content.length))];
      }
      in.readFully(content, 0, length);
      position += length;
      return length;
    }

    /** AVRO_DATA_BLOCK content: version 3, record count, then per record its length and datum. */
    private long decodeAvroRecords(int length, AvroRowDecoder rowDecoder) throws IOException {
      if (length < 8) {
        throw corrupt("Avro data block content of " + length + " bytes, expected at least 8", null);
      }
      int version = bigEndianInt(content, 0);
      int count = bigEndianInt(content, 4);
      if (version != LogBlockLayout.BLOCK_CONTENT_VERSION || count < 0) {
        throw corrupt(
            "Avro data block content version "
                + version
                + " and record count "
                + count
                + ", expected version "
                + LogBlockLayout.BLOCK_CONTENT_VERSION,
            null);
      }
      int at = 8;
      for (int i = 0; i < count; i++) {
        int datumLength = length - at < 4 ? -1 : bigEndianInt(content, at);
        if (datumLength < 0 || datumLength > length - at - 4) {
          throw corrupt(
              "record "
                  + i
                  + " of "
                  + count
                  + " at content byte "
                  + at
                  + " runs past the content's "
                  + length
                  + " bytes",
              null);
        }
        try {
          if (keys == KeyFilter.ALL
              || rowDecoder.accepts(content, at + 4, datumLength, StoredRowType.RECORD_KEY, keys)) {
            sink.row(rowDecoder.decode(content, at + 4, datumLength));
          }
        } catch (IOException e) {
          throw corrupt("record " + i + " at content byte " + at + ": " + e.getMessage(), e);
        }
        at += 4 + datumLength;
      }
      if (at != length) {
        throw corrupt(
            (length - at) + " content bytes after the last of " + count + " records", null);
      }
      return count;
    }

    private long decodeDeletes(int length) throws IOException {
      try {
        return deleteDecoder.decode(content, length, sink, keys);
      } catch (IOException e) {
        throw corrupt("delete block: " + e.getMessage(), e);
      }
    }

    private IOException corrupt(String what, Exception cause) {
      return new IOException(
          "log file " + file + ", block at offset " + blockStart + ": " + what, cause);
    }

    private int readInt() throws IOException {
      int value = in.readInt();
      position += 4;
      return value;
    }

    private long readLong() throws IOException {
      long value = in.readLong();
      position += 8;
      return value;
    }

    private byte[] readBytes(int length) throws IOException {
      byte[] bytes = new byte[length];
      in.readFully(bytes);
      position += length;
      return bytes;
    }
  }
}
