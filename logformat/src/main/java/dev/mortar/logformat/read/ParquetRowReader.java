package dev.mortar.logformat.read;

import dev.mortar.logformat.AvroSchemas;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.column.ColumnReader;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.filter.RecordFilter;
import org.apache.parquet.filter.UnboundRecordFilter;
import org.apache.parquet.filter2.compat.FilterCompat;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.io.ColumnIOFactory;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.MessageColumnIO;
import org.apache.parquet.io.ParquetDecodingException;
import org.apache.parquet.io.RecordReader;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.io.api.RecordMaterializer;
import org.apache.parquet.schema.MessageType;

/**
 * Reads the rows of a Parquet file (a base file, or the content of a PARQUET_DATA_BLOCK) as {@link
 * org.apache.flink.table.data.binary.BinaryRowData} of a given row type, columns matched by name.
 *
 * <p>Only the columns of the row type are read ({@link ParquetProjection}). parquet-mr's record
 * assembly drives converters ({@link Converters}) that write each value straight into one reused
 * row; arrays and maps are collected per record and copied in as binary arrays and maps. Files of
 * parquet-avro's layouts read (3-level and 2-level lists, {@code key_value} maps, decimals as bytes
 * or fixed, timestamps as INT64), as do those of Mortar's own writer, which follows them.
 */
public final class ParquetRowReader {
  private final RowType rowType;

  public ParquetRowReader(RowType rowType) {
    this.rowType = rowType;
  }

  /** Gives every row of {@code file} to {@code consumer}, in file order; returns the row count. */
  public long read(InputFile file, RowConsumer consumer) throws IOException {
    return read(file, consumer, KeyFilter.ALL);
  }

  /**
   * {@link #read(InputFile, RowConsumer)}, giving {@code consumer} only the rows whose record key
   * (column {@code _hoodie_record_key}, which the row type must have unless {@code keys} is {@link
   * KeyFilter#ALL}) {@code keys} accepts; the others are skipped column by column, not assembled.
   * Returns the file's row count all the same.
   */
  public long read(InputFile file, RowConsumer consumer, KeyFilter keys) throws IOException {
    String fileName = file.toString();
    try (ParquetFileReader reader =
        ParquetFileReader.open(file, ParquetReadOptions.builder().build())) {
      MessageType fileSchema = reader.getFileMetaData().getSchema();
      MessageType requested = ParquetProjection.of(fileSchema, rowType, fileName);
      reader.setRequestedSchema(requested);
      MessageColumnIO columnIO =
          new ColumnIOFactory(reader.getFileMetaData().getCreatedBy())
              .getColumnIO(requested, fileSchema);
      RowMaterializer materializer = new RowMaterializer(materializerRoot(requested, fileName));
      FilterCompat.Filter filter =
          keys == KeyFilter.ALL ? FilterCompat.NOOP : FilterCompat.get(new KeyColumnFilter(keys));
      long rows = 0;
      PageReadStore rowGroup;
      while ((rowGroup = reader.readNextRowGroup()) != null) {
        RecordReader<BinaryRowData> records =
            columnIO.getRecordReader(rowGroup, materializer, filter);
        if (keys == KeyFilter.ALL) {
          for (long i = 0; i < rowGroup.getRowCount(); i++) {
            consumer.accept(readRecord(records, fileName, rows + i));
          }
        } else {
          BinaryRowData row;
          while ((row = readRecord(records, fileName, rows)) != null) {
            consumer.accept(row);
          }
        }
        rows += rowGroup.getRowCount();
      }
      return rows;
    }
  }

  private RowConverter materializerRoot(MessageType requested, String fileName) throws IOException {
    try {
      return new RowConverter(requested, rowType, "", null);
    } catch (IllegalArgumentException e) {
      throw new IOException("Parquet file " + fileName + ": " + e.getMessage(), e);
    }
  }

  private static BinaryRowData readRecord(
      RecordReader<BinaryRowData> records, String fileName, long row) throws IOException {
    try {
      return records.read();
    } catch (ParquetDecodingException e) {
      throw new IOException("Parquet file " + fileName + ", row " + row + ": " + e.getMessage(), e);
    }
  }

  /**
   * Lets parquet-mr's filtered record reader assemble only the records whose key {@code keys}
   * accepts: it tests the key column's current value first and skips the other columns' values of a
   * refused record. A null key is let through.
   */
  private static final class KeyColumnFilter implements UnboundRecordFilter {
    private static final String KEY_COLUMN = AvroSchemas.META_FIELDS.get(StoredRowType.RECORD_KEY);
    private final KeyFilter keys;

    KeyColumnFilter(KeyFilter keys) {
      this.keys = keys;
    }

    @Override
    public RecordFilter bind(Iterable<ColumnReader> readers) {
      for (ColumnReader reader : readers) {
        String[] path = reader.getDescriptor().getPath();
        if (path.length == 1 && path[0].equals(KEY_COLUMN)) {
          int maxDefinitionLevel = reader.getDescriptor().getMaxDefinitionLevel();
          return () ->
              reader.getCurrentDefinitionLevel() < maxDefinitionLevel
                  || accepts(reader.getBinary());
        }
      }
      throw new IllegalArgumentException("no column " + KEY_COLUMN + " to filter record keys by");
    }

    private boolean accepts(Binary key) {
      ByteBuffer bytes = key.toByteBuffer();
      if (bytes.hasArray()) {
        return keys.accepts(
            bytes.array(), bytes.arrayOffset() + bytes.position(), bytes.remaining());
      }
      byte[] copy = key.getBytes();
      return keys.accepts(copy, 0, copy.length);
    }
  }

  /** The record is the top-level row, rebuilt in place for each record. */
  private static final class RowMaterializer extends RecordMaterializer<BinaryRowData> {
    private final RowConverter root;

    RowMaterializer(RowConverter root) {
      this.root = root;
    }

    @Override
    public BinaryRowData getCurrentRecord() {
      return root.row();
    }

    @Override
    public GroupConverter getRootConverter() {
      return root;
    }
  }
}
