package dev.mortar.logformat;

/**
 * What one thread's log file writers encode data blocks with, kept from one file to the next: the
 * buffer a block is encoded into and, for Parquet blocks, parquet-mr's buffers and compressors. A
 * task that flushes many times keeps one, so encoding allocates little after its first flushes.
 * Writers open at the same time must not share one.
 */
public record BlockScratch(BlockBuffer content, ParquetWriterResources parquet) {}
