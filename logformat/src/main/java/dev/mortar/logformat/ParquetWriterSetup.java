package dev.mortar.logformat;

import java.io.IOException;
import java.util.EnumMap;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.hadoop.ParquetFileWriter;

/**
 * What a flush thread keeps from one Parquet content (a log block, a base file) to the next, so
 * that parquet-mr's writer set-up is not made again for each (rfc/0003, "One writer set-up per
 * flush thread"): the allocator the column writers' slabs come from, which lends them again ({@link
 * RecyclingAllocator}), and a page compressor per codec with its output buffer ({@link
 * PageCompressor}). It serves one content at a time, on one thread: {@link #open} fails while a
 * content it opened is not closed. Nothing in it needs closing.
 */
public final class ParquetWriterSetup {
  /**
   * Column buffers kept between contents, at most: a page buffer for each of 16 columns at
   * parquet-mr's default 1 MiB page size. A wider schema reuses part of its buffers and leaves the
   * rest to the garbage collector.
   */
  static final long KEPT_BUFFER_BYTES = 16L << 20;

  private final RecyclingAllocator allocator;
  private final EnumMap<ParquetCodec, PageCompressor> compressors =
      new EnumMap<>(ParquetCodec.class);
  private boolean contentOpen;

  public ParquetWriterSetup() {
    this(new RecyclingAllocator(KEPT_BUFFER_BYTES));
  }

  ParquetWriterSetup(RecyclingAllocator allocator) {
    this.allocator = allocator;
  }

  /** Starts a content of {@code format}, with the dictionary off for the given columns. */
  ParquetContentWriter open(ParquetContentFormat format, Iterable<String> columnsWithoutDictionary)
      throws IOException {
    if (contentOpen) {
      throw new IllegalStateException(
          "a Parquet writer set-up serves one content at a time, and one is still open");
    }
    ParquetProperties properties = format.properties(allocator, columnsWithoutDictionary);
    ParquetFileWriter file = format.startFile(properties);
    PageCompressor compressor = compressors.computeIfAbsent(format.codec(), PageCompressor::new);
    compressor.borrow();
    contentOpen = true;
    return new ParquetContentWriter(format, file, properties, compressor, this);
  }

  /** Called by a content's writer once it is closed or given up. */
  void contentClosed(PageCompressor compressor) {
    compressor.release();
    allocator.contentEnded();
    contentOpen = false;
  }
}
