package dev.mortar.logformat.read;

import java.io.IOException;
import org.apache.flink.table.data.binary.BinaryRowData;

/** Receives rows one by one; a row may be reused by the reader once {@link #accept} returns. */
@FunctionalInterface
public interface RowConsumer {
  void accept(BinaryRowData row) throws IOException;
}
