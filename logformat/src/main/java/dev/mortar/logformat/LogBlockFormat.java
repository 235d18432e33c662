package dev.mortar.logformat;

/**
 * Which data block type a {@link LogFileWriter} writes (Hudi's {@code
 * hoodie.logfile.data.block.format}).
 */
public enum LogBlockFormat {
  /** AVRO_DATA_BLOCK: row-wise Avro binary datums, Hudi 1.1's default for Flink MOR. */
  AVRO(LogBlockLayout.AVRO_DATA_BLOCK),
  /** PARQUET_DATA_BLOCK: one complete Parquet file per block. */
  PARQUET(LogBlockLayout.PARQUET_DATA_BLOCK);

  private final int blockType;

  LogBlockFormat(int blockType) {
    this.blockType = blockType;
  }

  /** The {@code HoodieLogBlockType} ordinal written in the block framing. */
  public int blockType() {
    return blockType;
  }
}
