package dev.mortar.logformat;

import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/** Compression of Parquet data blocks (Hudi's {@code hoodie.parquet.compression.codec}). */
public enum ParquetCodec {
  SNAPPY(CompressionCodecName.SNAPPY),
  ZSTD(CompressionCodecName.ZSTD),
  GZIP(CompressionCodecName.GZIP),
  NONE(CompressionCodecName.UNCOMPRESSED);

  private final CompressionCodecName parquetName;

  ParquetCodec(CompressionCodecName parquetName) {
    this.parquetName = parquetName;
  }

  public CompressionCodecName parquetName() {
    return parquetName;
  }
}
