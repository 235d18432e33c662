package dev.mortar.logformat;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The byte layout of a Hudi log block (format version 1), as Hudi 1.1's {@code
 * HoodieLogFormatWriter} writes it and {@code HoodieLogFileReader} checks it
 * (shared/spec/hudi-format.md §6). A log file is nothing but blocks back to back; all framing
 * integers are big-endian.
 *
 * <pre>
 *  offset  size  field
 *  0       6     magic "#HUDI#"                         23 48 55 44 49 23
 *  6       8     L = bytes after this field, through the reverse pointer
 *  14      4     log format version = 1
 *  18      4     block type ordinal (DELETE 1, AVRO_DATA 3, PARQUET_DATA 5)
 *  22      H     header map: int32 count, then per entry
 *                  int32 key ordinal (INSTANT_TIME 0, SCHEMA 2), int32 length, UTF-8 bytes
 *  22+H    8     N = content length
 *  30+H    N     content (AvroBlockBuilder, ParquetBlockBuilder, DeleteBlockBuilder)
 *  30+H+N  4     footer map: always empty, int32 0
 *  34+H+N  8     reverse pointer = L + 6 (block size without this field)
 *
 *  L = 4 + 4 + H + 8 + N + 4 + 8          block on disk = 14 + L bytes
 * </pre>
 *
 * The reader declares a block corrupt unless the reverse pointer equals {@code L + 6} and the bytes
 * after the block are EOF or the next magic; it casts lengths to {@code int}, so a block stays
 * below 2 GiB.
 */
public final class LogBlockLayout {
  public static final byte[] MAGIC = "#HUDI#".getBytes(StandardCharsets.US_ASCII);
  public static final int LOG_FORMAT_VERSION = 1;

  /** {@code HoodieLogBlockType} ordinals. */
  public static final int DELETE_BLOCK = 1;

  public static final int AVRO_DATA_BLOCK = 3;
  public static final int PARQUET_DATA_BLOCK = 5;

  /** {@code HeaderMetadataType} ordinals. */
  public static final int HEADER_INSTANT_TIME = 0;

  public static final int HEADER_SCHEMA = 2;

  /** Content version of data and delete blocks ({@code HoodieLogBlock.version}). */
  public static final int BLOCK_CONTENT_VERSION = 3;

  /** Bytes after the content: empty footer map, reverse pointer. */
  public static final int SUFFIX_SIZE = 4 + 8;

  private LogBlockLayout() {}

  /** The value of L for a block with a header of {@code headerSize} and {@code contentSize}. */
  public static long blockLength(int headerSize, long contentSize) {
    return 4 + 4 + headerSize + 8 + contentSize + SUFFIX_SIZE;
  }

  /** The header map {INSTANT_TIME, SCHEMA} every data and delete block of one writer carries. */
  public static byte[] header(String instantTime, String schemaJson) {
    BlockBuffer header = new BlockBuffer(64 + schemaJson.length() * 2);
    header.writeIntBigEndian(2);
    writeEntry(header, HEADER_INSTANT_TIME, instantTime);
    writeEntry(header, HEADER_SCHEMA, schemaJson);
    return Arrays.copyOf(header.array(), header.size());
  }

  private static void writeEntry(BlockBuffer header, int key, String value) {
    byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
    header.writeIntBigEndian(key);
    header.writeIntBigEndian(bytes.length);
    header.writeBytes(bytes, 0, bytes.length);
  }

  /**
   * Writes one whole block: framing into {@code frame} (a small reused buffer), the content
   * straight from its buffer. Returns the bytes written.
   */
  public static long writeBlock(
      OutputStream out, BlockBuffer frame, int blockType, byte[] header, BlockBuffer content)
      throws IOException {
    long length = blockLength(header.length, content.size());
    frame.reset();
    frame.writeBytes(MAGIC, 0, MAGIC.length);
    frame.writeLongBigEndian(length);
    frame.writeIntBigEndian(LOG_FORMAT_VERSION);
    frame.writeIntBigEndian(blockType);
    frame.writeBytes(header, 0, header.length);
    frame.writeLongBigEndian(content.size());
    frame.writeTo(out);
    content.writeTo(out);
    frame.reset();
    frame.writeIntBigEndian(0);
    frame.writeLongBigEndian(length + 6);
    frame.writeTo(out);
    return 14 + length;
  }
}
