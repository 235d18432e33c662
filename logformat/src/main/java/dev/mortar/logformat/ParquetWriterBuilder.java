package dev.mortar.logformat;

import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.io.OutputFile;

/** A parquet-mr writer builder with a given write support. */
public final class ParquetWriterBuilder<T>
    extends ParquetWriter.Builder<T, ParquetWriterBuilder<T>> {
  private final WriteSupport<T> writeSupport;

  public ParquetWriterBuilder(OutputFile file, WriteSupport<T> writeSupport) {
    super(file);
    this.writeSupport = writeSupport;
  }

  @Override
  protected ParquetWriterBuilder<T> self() {
    return this;
  }

  @Override
  protected WriteSupport<T> getWriteSupport(Configuration conf) {
    return writeSupport;
  }
}
