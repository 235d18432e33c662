package dev.mortar.logformat;

import dev.mortar.logformat.read.StoredRowType;
import java.io.Closeable;
import java.io.IOException;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.data.utils.ProjectedRowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.io.api.Binary;

/**
 * Writes a Hudi base file (shared/spec/hudi-table-services.md §2.3) from stored rows ({@link
 * StoredRowType}): the five meta columns, then the data columns, in the Parquet layout of {@link
 * RowDataWriteSupport}. The meta values of each row are kept as the row holds them (the commit time
 * and sequence number of the delta commit that wrote the record), except {@code _hoodie_file_name},
 * which becomes this file's name. The footer carries the Avro schema and Hudi's {@code
 * hoodie_min_record_key} / {@code hoodie_max_record_key}; no bloom filter (readers need none, and a
 * bucket-indexed table is never looked up by one).
 *
 * <p>The file is created when the first row comes (never overwritten) and is complete only once
 * {@link #finish()} returned; a writer closed without finishing leaves a partial file for the
 * caller to delete.
 */
public final class BaseFileWriter implements Closeable {
  private static final String MIN_KEY = "hoodie_min_record_key";
  private static final String MAX_KEY = "hoodie_max_record_key";

  private final FileSystem fs;
  private final Path file;
  private final RowDataWriteSupport writeSupport;
  private final ParquetWriter<RowData> writer;
  private final ProjectedRowData dataColumns;
  private final Binary fileName;
  private BinaryStringData minKey;
  private BinaryStringData maxKey;
  private long records;

  /**
   * @param avroSchema the table's Avro schema with meta fields, as its log blocks carry it
   * @param rowGroupBytes the row group size: what the writer holds in memory before it writes
   */
  public BaseFileWriter(
      FileSystem fs,
      Path file,
      RowType dataType,
      Schema avroSchema,
      ParquetCodec codec,
      long rowGroupBytes)
      throws IOException {
    this.fs = fs;
    this.file = file;
    this.writeSupport =
        new RowDataWriteSupport(dataType, avroSchema.getFullName(), avroSchema.toString(), true);
    this.writer =
        new ParquetWriterBuilder(new FileSystemOutputFile(fs, file), writeSupport)
            .withConf(new Configuration(false))
            .withWriteMode(ParquetFileWriter.Mode.CREATE)
            .withCompressionCodec(codec.parquetName())
            .withRowGroupSize(rowGroupBytes)
            .build();
    int[] dataPositions = new int[dataType.getFieldCount()];
    for (int i = 0; i < dataPositions.length; i++) {
      dataPositions[i] = StoredRowType.META_FIELD_COUNT + i;
    }
    this.dataColumns = ProjectedRowData.from(dataPositions);
    this.fileName = Binary.fromString(file.getName());
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
    writeSupport.setMetaValues(
        meta(stored, StoredRowType.COMMIT_TIME),
        meta(stored, StoredRowType.COMMIT_SEQNO),
        meta(stored, StoredRowType.RECORD_KEY),
        meta(stored, StoredRowType.PARTITION_PATH),
        fileName);
    writer.write(dataColumns.replaceRow(stored));
    records++;
  }

  private static Binary meta(BinaryRowData stored, int position) {
    return stored.isNullAt(position) ? null : ParquetBinaries.of(stored.getString(position));
  }

  /** Closes the file with its footer; returns the rows written and the file's size. */
  public BaseFileStat finish() throws IOException {
    if (minKey != null) {
      writeSupport.setClosingFooter(Map.of(MIN_KEY, minKey.toString(), MAX_KEY, maxKey.toString()));
    }
    writer.close();
    return new BaseFileStat(file.getName(), records, fs.getFileStatus(file).getLen());
  }

  @Override
  public void close() throws IOException {
    writer.close();
  }

  /** What a finished base file holds. */
  public record BaseFileStat(String fileName, long records, long sizeBytes) {}
}
