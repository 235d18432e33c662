package dev.mortar.logformat;

import dev.mortar.logformat.read.StoredRowType;
import java.io.Closeable;
import java.io.IOException;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.RecordConsumer;

/**
 * Writes a Hudi base file (shared/spec/hudi-table-services.md §2.3) from stored rows ({@link
 * StoredRowType}): the five meta columns, then the data columns, in the Parquet layout of {@link
 * ParquetSchemas}, written by {@link BinaryRowWriteSupport}. The meta values of each row are kept
 * as the row holds them (the commit time and sequence number of the delta commit that wrote the
 * record), except {@code _hoodie_file_name}, which becomes this file's name. The footer carries the
 * Avro schema and Hudi's {@code hoodie_min_record_key} / {@code hoodie_max_record_key}; no bloom
 * filter (readers need none, and a bucket-indexed table is never looked up by one).
 *
 * <p>With the dictionary decided per column, the file's first rows decide it, as a log block's do
 * ({@link DeferredParquetWriter}): whatever rows it begins with (the previous base file's, or
 * merged log records) are the sample. The file is created once the writer opens (never overwritten)
 * and is complete only once {@link #finish()} returned; a writer closed without finishing may leave
 * a partial file for the caller to delete.
 */
public final class BaseFileWriter implements Closeable {
  private static final String MIN_KEY = "hoodie_min_record_key";
  private static final String MAX_KEY = "hoodie_max_record_key";

  private final FileSystem fs;
  private final Path file;
  private final BinaryRowWriteSupport writeSupport;
  private final DeferredParquetWriter writer;
  private BinaryStringData minKey;
  private BinaryStringData maxKey;
  private long records;

  /**
   * @param avroSchema the table's Avro schema with meta fields, as its log blocks carry it
   * @param rowGroupBytes the row group size: what the writer holds in memory before it writes
   * @param dictionaryPerColumn whether the first rows decide per column where to try a dictionary
   *     (else every column tries it)
   * @param resources the writing thread's parquet-mr buffers and compressors, kept across files
   */
  public BaseFileWriter(
      FileSystem fs,
      Path file,
      RowType dataType,
      Schema avroSchema,
      ParquetCodec codec,
      long rowGroupBytes,
      boolean dictionaryPerColumn,
      ParquetWriterResources resources) {
    this.fs = fs;
    this.file = file;
    this.writeSupport =
        new BinaryRowWriteSupport(
            dataType,
            StoredRowType.META_FIELD_COUNT,
            avroSchema,
            new StoredMetaColumns(Binary.fromString(file.getName())));
    this.writer =
        new DeferredParquetWriter(
            () ->
                new ParquetWriterBuilder<>(new FileSystemOutputFile(fs, file), writeSupport)
                    .withConf(new Configuration(false))
                    .withWriteMode(ParquetFileWriter.Mode.CREATE)
                    .withCompressionCodec(codec.parquetName())
                    .withRowGroupSize(rowGroupBytes),
            dictionaryPerColumn
                ? new DictionarySampler(dataType, StoredRowType.META_FIELD_COUNT, true)
                : null,
            StoredRowType.META_FIELD_COUNT + dataType.getFieldCount(),
            null,
            resources);
  }

  /** Appends one stored row; its record key must not be null. */
  public void write(BinaryRowData stored) throws IOException {
    BinaryStringData key = (BinaryStringData) stored.getString(StoredRowType.RECORD_KEY);
    if (minKey == null || key.compareTo(minKey) < 0) {
      minKey = key.copy();
    }
    if (maxKey == null || key.compareTo(maxKey) > 0) {
      maxKey = key.copy();
    }
    // No sequence number counter: the stored row carries its own sequence number.
    writer.add(key.getSegments(), key.getOffset(), key.getSizeInBytes(), 0, stored);
    records++;
  }

  /** Closes the file with its footer; returns the rows written and the file's size. */
  public BaseFileStat finish() throws IOException {
    if (minKey != null) {
      writeSupport.setClosingFooter(Map.of(MIN_KEY, minKey.toString(), MAX_KEY, maxKey.toString()));
    }
    writer.finish();
    return new BaseFileStat(file.getName(), records, fs.getFileStatus(file).getLen());
  }

  @Override
  public void close() throws IOException {
    writer.abort();
  }

  /**
   * The meta fields of a base file record: the stored row's own (null ones left out), except the
   * file name, which is this file's.
   */
  private static final class StoredMetaColumns implements ParquetMetaColumns {
    private final Binary fileName;
    private final ParquetBinaries binaries = new ParquetBinaries();

    StoredMetaColumns(Binary fileName) {
      this.fileName = fileName;
    }

    @Override
    public void write(RecordConsumer consumer, BinaryRowData stored) {
      int slots = stored.getOffset() + BinaryRowData.calculateBitSetWidthInBytes(stored.getArity());
      for (int position = 0; position < StoredRowType.FILE_NAME; position++) {
        if (!stored.isNullAt(position)) {
          Binary value =
              binaries.variable(stored.getSegments(), stored.getOffset(), slots + position * 8);
          ParquetMetaColumns.writeField(consumer, position, value);
        }
      }
      ParquetMetaColumns.writeField(consumer, StoredRowType.FILE_NAME, fileName);
    }
  }

  /** What a finished base file holds. */
  public record BaseFileStat(String fileName, long records, long sizeBytes) {}
}
