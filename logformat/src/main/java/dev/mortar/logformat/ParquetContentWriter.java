package dev.mortar.logformat;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.parquet.column.ColumnWriteStore;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.hadoop.ColumnChunkPageWriteStore;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.io.MessageColumnIO;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.MessageType;

/**
 * Writes the records of one Parquet content (a log block's, a base file) into a started {@link
 * ParquetFileWriter}: what parquet-mr's package-private {@code InternalParquetRecordWriter} does
 * behind a {@code ParquetWriter}, over the page compressor and allocator of a {@link
 * ParquetWriterSetup} instead of new ones. The rules are parquet-mr 1.13.1's, so the bytes are the
 * same: the buffered size is checked after {@link
 * ParquetProperties#getMinRowCountForPageSizeCheck()} records of a row group and then half-way to
 * its expected end, and a row group is written once it is within two records of {@code
 * rowGroupBytes} (or of what the file writer's alignment leaves). parquet-mr binds column writers
 * to a page store that serves one row group, so both are made per row group; their slabs come from
 * the set-up's allocator.
 */
final class ParquetContentWriter {
  private final ParquetFileWriter file;
  private final BinaryRowWriteSupport writeSupport;
  private final MessageType schema;
  private final MessageColumnIO columnIO;
  private final Map<String, String> extraMetaData;
  private final ParquetProperties properties;
  private final PageCompressor compressor;
  private final ParquetWriterSetup setup;
  private final long rowGroupBytes;
  private long nextRowGroupBytes;
  private long recordCount;
  private long recordCountForNextSizeCheck;
  private long lastRowGroupEnd;
  private ColumnChunkPageWriteStore pageStore;
  private ColumnWriteStore columnStore;
  private RecordConsumer recordConsumer;

  /**
   * @param file started by {@code format}: its magic written
   * @param setup told when the content is closed
   */
  ParquetContentWriter(
      ParquetContentFormat format,
      ParquetFileWriter file,
      ParquetProperties properties,
      PageCompressor compressor,
      ParquetWriterSetup setup) {
    this.file = file;
    this.writeSupport = format.writeSupport();
    this.schema = format.schema();
    this.columnIO = format.columnIO();
    this.extraMetaData = format.extraMetaData();
    this.properties = properties;
    this.compressor = compressor;
    this.setup = setup;
    this.rowGroupBytes = format.rowGroupBytes();
    this.nextRowGroupBytes = rowGroupBytes;
    this.recordCountForNextSizeCheck = properties.getMinRowCountForPageSizeCheck();
    startRowGroup();
  }

  void write(BinaryRowData row) throws IOException {
    writeSupport.write(row);
    recordCount++;
    if (recordCount >= recordCountForNextSizeCheck) {
      checkRowGroupSize();
    }
  }

  /** The bytes of the row groups written so far plus those the column writers buffer. */
  long dataSize() {
    return lastRowGroupEnd + columnStore.getBufferedSize();
  }

  /**
   * Writes the last row group and the footer, and closes the file; the set-up serves the next
   * content even if this fails.
   */
  void close() throws IOException {
    try {
      writeRowGroup();
      Map<String, String> footer = new HashMap<>(extraMetaData);
      footer.putAll(writeSupport.finalizeWrite().getExtraMetaData());
      file.end(footer);
    } finally {
      setup.contentClosed(compressor);
    }
  }

  private void startRowGroup() {
    pageStore =
        new ColumnChunkPageWriteStore(
            compressor,
            schema,
            properties.getAllocator(),
            properties.getColumnIndexTruncateLength(),
            properties.getPageWriteChecksumEnabled());
    columnStore = properties.newColumnWriteStore(schema, pageStore, pageStore);
    recordConsumer = columnIO.getRecordWriter(columnStore);
    writeSupport.prepareForWrite(recordConsumer);
  }

  private void checkRowGroupSize() throws IOException {
    long bufferedBytes = columnStore.getBufferedSize();
    long recordBytes = bufferedBytes / recordCount;
    if (bufferedBytes > nextRowGroupBytes - 2 * recordBytes) {
      writeRowGroup();
      startRowGroup();
      recordCountForNextSizeCheck = properties.getMinRowCountForPageSizeCheck();
      lastRowGroupEnd = file.getPos();
    } else {
      recordCountForNextSizeCheck =
          Math.min(
              Math.max(
                  properties.getMinRowCountForPageSizeCheck(),
                  (recordCount + (long) (nextRowGroupBytes / ((float) recordBytes))) / 2),
              recordCount + properties.getMaxRowCountForPageSizeCheck());
    }
  }

  private void writeRowGroup() throws IOException {
    recordConsumer.flush();
    if (recordCount > 0) {
      file.startBlock(recordCount);
      columnStore.flush();
      pageStore.flushToFileWriter(file);
      recordCount = 0;
      file.endBlock();
      nextRowGroupBytes = Math.min(file.getNextRowGroupSize(), rowGroupBytes);
    }
  }
}
