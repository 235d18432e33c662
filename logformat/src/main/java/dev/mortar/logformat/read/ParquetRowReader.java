package dev.mortar.logformat.read;

import java.io.IOException;
import org.apache.flink.table.types.logical.RowType;
import org.apache.parquet.io.InputFile;

/**
 * Reads the rows of a Parquet file (a base file, or the content of a PARQUET_DATA_BLOCK) as {@link
 * org.apache.flink.table.data.binary.BinaryRowData} of a given row type, columns matched by name.
 */
public final class ParquetRowReader {
  private final RowType rowType;

  public ParquetRowReader(RowType rowType) {
    this.rowType = rowType;
  }

  /** Gives every row of {@code file} to {@code consumer}, in file order; returns the row count. */
  public long read(InputFile file, RowConsumer consumer) throws IOException {
    throw new UnsupportedOperationException("not built yet: " + rowType);
  }
}
