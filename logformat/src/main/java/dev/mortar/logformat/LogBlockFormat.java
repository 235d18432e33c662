package dev.mortar.logformat;

/**
 * Which data block type a {@link LogFileWriter} writes (Hudi's {@code
 * hoodie.logfile.data.block.format}).
 */
public enum LogBlockFormat {
  /** AVRO_DATA_BLOCK: row-wise Avro binary datums, Hudi 1.1's default for Flink MOR. */
  AVRO(LogBlockLayout.AVRO_DATA_BLOCK, 8L << 20),
  /** PARQUET_DATA_BLOCK: one complete Parquet file per block. */
  PARQUET(LogBlockLayout.PARQUET_DATA_BLOCK, 128L << 20);

  private final int blockType;
  private final long defaultMaxBlockSizeBytes;

  LogBlockFormat(int blockType, long defaultMaxBlockSizeBytes) {
    this.blockType = blockType;
    this.defaultMaxBlockSizeBytes = defaultMaxBlockSizeBytes;
  }

  /** The {@code HoodieLogBlockType} ordinal written in the block framing. */
  public int blockType() {
    return blockType;
  }

  /**
   * The block size when none is set. Avro blocks are cut at 8 MiB, where Hudi cuts at 128 MiB
   * ({@code write.log_block.size}): a block is encoded whole into one array before it is written,
   * so the block size is memory a write task holds outside its page pool, and at 8 MiB that array
   * is allocated once, at full size, and never grows. Parquet blocks keep Hudi's 128 MiB:
   * parquet-mr starts each block's dictionaries and pages anew, so smaller Parquet blocks cost more
   * CPU per row (rfc/0003 "Block size" has the figures).
   */
  public long defaultMaxBlockSizeBytes() {
    return defaultMaxBlockSizeBytes;
  }
}
