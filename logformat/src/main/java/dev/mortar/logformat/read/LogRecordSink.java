package dev.mortar.logformat.read;

import dev.mortar.logformat.OrderingValue;
import java.io.IOException;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinaryStringData;

/** Receives the records of a log file in file order, from {@link LogFileReader}. */
public interface LogRecordSink {
  /**
   * A data record as stored: a row of {@link StoredRowType#of} the table's row type, five meta
   * string columns then the data columns. The reader reuses the row once this returns.
   */
  void row(BinaryRowData storedRow) throws IOException;

  /**
   * A delete. The key is the sink's to keep; {@code partitionPath} is null only if the writer wrote
   * none.
   */
  void delete(BinaryStringData recordKey, String partitionPath, OrderingValue ordering)
      throws IOException;
}
