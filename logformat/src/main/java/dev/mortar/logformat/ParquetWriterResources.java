package dev.mortar.logformat;

import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.hadoop.CodecFactory;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/**
 * What one thread's parquet-mr writers share from one Parquet content (a log block, a base file) to
 * the next, so a content costs no writer set-up beyond the writer itself: the heap buffers ({@link
 * RecyclingHeapAllocator}) and the compressors. A {@code ParquetWriter} releases its codec factory
 * when it closes; the factory lent here ignores that and keeps its compressors, as parquet-mr's own
 * codec pool would keep them.
 *
 * <p>One instance belongs to one thread, and to one open writer at a time: its codecs are not
 * thread-safe (its allocator is, for the reason given there).
 */
public final class ParquetWriterResources {
  private final RecyclingHeapAllocator allocator;
  private final KeptCodecs codecs = new KeptCodecs();

  public ParquetWriterResources() {
    this(new RecyclingHeapAllocator());
  }

  ParquetWriterResources(RecyclingHeapAllocator allocator) {
    this.allocator = allocator;
  }

  /** Gives {@code builder} this thread's buffers and compressors. */
  <T> ParquetWriterBuilder<T> lendTo(ParquetWriterBuilder<T> builder) {
    return builder.withAllocator(allocator).withCodecFactory(codecs);
  }

  /** The content written with the last writer lent to ended (its writer is closed). */
  void contentEnded() {
    allocator.contentEnded();
  }

  /** A codec factory whose compressors outlive the writers they are lent to. */
  private static final class KeptCodecs implements CompressionCodecFactory {
    private final CodecFactory codecs =
        new CodecFactory(new Configuration(false), ParquetProperties.DEFAULT_PAGE_SIZE);

    @Override
    public BytesInputCompressor getCompressor(CompressionCodecName codecName) {
      return codecs.getCompressor(codecName);
    }

    @Override
    public BytesInputDecompressor getDecompressor(CompressionCodecName codecName) {
      return codecs.getDecompressor(codecName);
    }

    @Override
    public void release() {
      // kept for the next writer
    }
  }
}
