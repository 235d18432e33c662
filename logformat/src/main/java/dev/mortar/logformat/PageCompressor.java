package dev.mortar.logformat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.compress.CodecPool;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.io.compress.CompressionOutputStream;
import org.apache.hadoop.io.compress.Compressor;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.hadoop.CodecFactory;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/**
 * Compresses the pages of one Parquet content after another into one output buffer. It does what
 * parquet-mr's {@code CodecFactory.HeapBytesCompressor} does for each page, with the same codec
 * instance, so the bytes are the same; but parquet-mr makes a compressor, with a new output buffer
 * of a page's size, for every writer, while this one keeps its buffer from content to content and
 * holds Hadoop's {@link Compressor} only while a content is written: {@link #borrow()} takes it
 * from {@link CodecPool}, {@link #release()} gives it back, so nothing is left to close when the
 * flush thread that owns it goes away.
 */
final class PageCompressor extends CodecFactory.BytesCompressor {
  private final CompressionCodecName codecName;
  private final CompressionCodec codec;
  private final ByteArrayOutputStream compressed;
  private Compressor compressor;

  PageCompressor(ParquetCodec codec) {
    this.codecName = codec.parquetName();
    this.codec = Codecs.INSTANCE.codec(codecName);
    this.compressed =
        this.codec == null ? null : new ByteArrayOutputStream(ParquetProperties.DEFAULT_PAGE_SIZE);
  }

  /** Takes a compressor for the content about to be written. */
  void borrow() {
    if (codec != null && compressor == null) {
      compressor = CodecPool.getCompressor(codec);
    }
  }

  @Override
  public BytesInput compress(BytesInput bytes) throws IOException {
    if (codec == null) {
      return bytes;
    }
    compressed.reset();
    if (compressor != null) {
      compressor.reset();
    }
    CompressionOutputStream stream = codec.createOutputStream(compressed, compressor);
    bytes.writeAllTo(stream);
    stream.finish();
    stream.close();
    return BytesInput.from(compressed);
  }

  @Override
  public CompressionCodecName getCodecName() {
    return codecName;
  }

  /** Gives the compressor back once the content is written. */
  @Override
  public void release() {
    if (compressor != null) {
      CodecPool.returnCompressor(compressor);
      compressor = null;
    }
  }

  /**
   * parquet-mr's codec instances, one per codec class in the JVM, made with the configuration of
   * the first writer that asked (parquet-mr's writers and this compressor share them).
   */
  private static final class Codecs extends CodecFactory {
    static final Codecs INSTANCE = new Codecs();

    private Codecs() {
      super(new Configuration(false), ParquetProperties.DEFAULT_PAGE_SIZE);
    }

    CompressionCodec codec(CompressionCodecName name) {
      return getCodec(name);
    }
  }
}
