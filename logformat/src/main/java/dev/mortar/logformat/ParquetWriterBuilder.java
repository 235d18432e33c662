package dev.mortar.logformat;

import org.apache.flink.table.data.RowData;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.io.OutputFile;

/** A parquet-mr writer builder for {@link RowData} with a given write support. */
final class ParquetWriterBuilder extends ParquetWriter.Builder<RowData, ParquetWriterBuilder> {
  private final WriteSupport<RowData> writeSupport;

  ParquetWriterBuilder(OutputFile file, WriteSupport<RowData> writeSupport) {
    super(file);
    this.writeSupport = writeSupport;
  }

  @Override
  protected ParquetWriterBuilder self() {
    return this;
  }

  @Override
  protected WriteSupport<RowData> getWriteSupport(Configuration conf) {
    return writeSupport;
  }
}
