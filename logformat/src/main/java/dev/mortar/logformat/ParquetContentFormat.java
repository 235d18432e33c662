package dev.mortar.logformat;

import java.io.IOException;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.io.ColumnIOFactory;
import org.apache.parquet.io.MessageColumnIO;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.schema.MessageType;

/**
 * How every content of one writer is written: the output file (created anew for each content), the
 * write support, the codec, the dictionary default and the row group size, with what parquet-mr
 * derives from them, worked out once: the schema, the footer's key-value pairs and the tree that
 * turns records into column values ({@link MessageColumnIO}). The other settings are parquet-mr's
 * defaults, as a {@code ParquetWriter.Builder} leaves them: 1 MiB pages and dictionary pages,
 * format version 1, 8 MiB padding, page checksums, no bloom filter, no encryption.
 */
final class ParquetContentFormat {
  private final OutputFile file;
  private final ParquetFileWriter.Mode mode;
  private final BinaryRowWriteSupport writeSupport;
  private final ParquetCodec codec;
  private final boolean dictionary;
  private final long rowGroupBytes;
  private final MessageType schema;
  private final Map<String, String> extraMetaData;
  private final MessageColumnIO columnIO;

  /**
   * @param dictionary whether columns try dictionary encoding unless a content rules it out
   */
  ParquetContentFormat(
      OutputFile file,
      ParquetFileWriter.Mode mode,
      BinaryRowWriteSupport writeSupport,
      ParquetCodec codec,
      boolean dictionary,
      long rowGroupBytes) {
    this.file = file;
    this.mode = mode;
    this.writeSupport = writeSupport;
    this.codec = codec;
    this.dictionary = dictionary;
    this.rowGroupBytes = rowGroupBytes;
    WriteSupport.WriteContext context = writeSupport.init(new Configuration(false));
    this.schema = context.getSchema();
    this.extraMetaData = context.getExtraMetaData();
    this.columnIO = new ColumnIOFactory(false).getColumnIO(schema);
  }

  ParquetCodec codec() {
    return codec;
  }

  /** The settings of one content: slabs from {@code allocator}, the given columns plain. */
  ParquetProperties properties(
      RecyclingAllocator allocator, Iterable<String> columnsWithoutDictionary) {
    ParquetProperties.Builder properties =
        ParquetProperties.builder().withAllocator(allocator).withDictionaryEncoding(dictionary);
    for (String column : columnsWithoutDictionary) {
      properties.withDictionaryEncoding(column, false);
    }
    return properties.build();
  }

  /** Creates the output file of a new content and writes its magic. */
  ParquetFileWriter startFile(ParquetProperties properties) throws IOException {
    ParquetFileWriter started =
        new ParquetFileWriter(
            file,
            schema,
            mode,
            rowGroupBytes,
            ParquetWriter.MAX_PADDING_SIZE_DEFAULT,
            properties.getColumnIndexTruncateLength(),
            properties.getStatisticsTruncateLength(),
            properties.getPageWriteChecksumEnabled());
    started.start();
    return started;
  }

  BinaryRowWriteSupport writeSupport() {
    return writeSupport;
  }

  MessageType schema() {
    return schema;
  }

  MessageColumnIO columnIO() {
    return columnIO;
  }

  /** The footer's key-value pairs known before the records: the write support's {@code init}. */
  Map<String, String> extraMetaData() {
    return extraMetaData;
  }

  long rowGroupBytes() {
    return rowGroupBytes;
  }
}
