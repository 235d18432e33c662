package dev.mortar.logformat;

import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.io.OutputFile;

/** A parquet-mr writer builder for {@link BinaryRowData} with a given write support. */
final class ParquetWriterBuilder
    extends ParquetWriter.Builder<BinaryRowData, ParquetWriterBuilder> {
  private final WriteSupport<BinaryRowData> writeSupport;

  ParquetWriterBuilder(OutputFile file, WriteSupport<BinaryRowData> writeSupport) {
    super(file);
    this.writeSupport = writeSupport;
  }

  @Override
  protected ParquetWriterBuilder self() {
    return this;
  }

  @Override
  protected WriteSupport<BinaryRowData> getWriteSupport(Configuration conf) {
    return writeSupport;
  }
}
