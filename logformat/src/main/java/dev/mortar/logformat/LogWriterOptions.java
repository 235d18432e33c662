package dev.mortar.logformat;

import java.util.Objects;

/**
 * Immutable options of a {@link LogFileWriter}. Defaults are Hudi 1.1's Flink defaults — 1 GiB
 * files ({@code write.log.max.size}), Avro blocks, meta fields populated — except the block size: 8
 * MiB where Hudi cuts at 128 MiB ({@code write.log_block.size}). A block is encoded whole into one
 * array before it is written, so the block size is memory every write task holds outside its page
 * pool; at 8 MiB that array is allocated once, at full size, and never grows (grown to 64 MiB by
 * copying, it took a quarter of the flush thread in a Schema1 profile). Each block repeats the
 * schema in its header: about 2 KB, 0.03 % of 8 MiB.
 */
public final class LogWriterOptions {
  public static final long DEFAULT_MAX_FILE_SIZE_BYTES = 1L << 30;
  public static final long DEFAULT_MAX_BLOCK_SIZE_BYTES = 8L << 20;
  public static final String DEFAULT_AVRO_RECORD_NAME = "record";

  /** Room in a new content buffer for the record that takes a block past its size. */
  private static final int CROSSING_RECORD_ROOM = 64 << 10;

  private final long maxFileSizeBytes;
  private final long maxBlockSizeBytes;
  private final LogBlockFormat blockFormat;
  private final ParquetCodec parquetCodec;
  private final boolean metaFields;
  private final String avroRecordName;
  private final boolean parquetDictionary;
  private final boolean directIo;

  private LogWriterOptions(Builder builder) {
    this.maxFileSizeBytes = builder.maxFileSizeBytes;
    this.maxBlockSizeBytes = builder.maxBlockSizeBytes;
    this.blockFormat = builder.blockFormat;
    this.parquetCodec = builder.parquetCodec;
    this.metaFields = builder.metaFields;
    this.avroRecordName = builder.avroRecordName;
    this.parquetDictionary = builder.parquetDictionary;
    this.directIo = builder.directIo;
  }

  public static LogWriterOptions defaults() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** A file is closed and the next version started once it has reached this size. */
  public long maxFileSizeBytes() {
    return maxFileSizeBytes;
  }

  /** A data block is cut once its encoded content has reached this size. */
  public long maxBlockSizeBytes() {
    return maxBlockSizeBytes;
  }

  /**
   * A new buffer to encode data blocks into, reusable across writers: a whole block (at most the
   * default block size) plus room for the record that crosses the limit, so that with blocks up to
   * the default it never grows. A block of larger records or a larger block size grows it, by
   * doubling, to the largest block written.
   */
  public BlockBuffer newContentBuffer() {
    return new BlockBuffer(
        (int) Math.min(maxBlockSizeBytes, DEFAULT_MAX_BLOCK_SIZE_BYTES) + CROSSING_RECORD_ROOM);
  }

  /** Local files are written with direct I/O where the disk supports it ({@link LogFileOutput}). */
  public boolean directIo() {
    return directIo;
  }

  public LogBlockFormat blockFormat() {
    return blockFormat;
  }

  public ParquetCodec parquetCodec() {
    return parquetCodec;
  }

  /** Whether the five {@code _hoodie_*} meta fields are prepended and populated. */
  public boolean metaFields() {
    return metaFields;
  }

  /**
   * Whether Parquet blocks try dictionary encoding (Hudi's {@code
   * hoodie.parquet.dictionary.enabled}, default true). On high-cardinality strings the attempt
   * costs most of the Parquet encoding time and then falls back to plain encoding.
   */
  public boolean parquetDictionary() {
    return parquetDictionary;
  }

  /** Full name of the Avro record ({@code namespace.name}), e.g. {@code hoodie.t1.t1_record}. */
  public String avroRecordName() {
    return avroRecordName;
  }

  public Builder toBuilder() {
    return builder()
        .maxFileSizeBytes(maxFileSizeBytes)
        .maxBlockSizeBytes(maxBlockSizeBytes)
        .blockFormat(blockFormat)
        .parquetCodec(parquetCodec)
        .metaFields(metaFields)
        .avroRecordName(avroRecordName)
        .parquetDictionary(parquetDictionary)
        .directIo(directIo);
  }

  @Override
  public String toString() {
    return "LogWriterOptions{maxFileSizeBytes="
        + maxFileSizeBytes
        + ", maxBlockSizeBytes="
        + maxBlockSizeBytes
        + ", blockFormat="
        + blockFormat
        + ", parquetCodec="
        + parquetCodec
        + ", metaFields="
        + metaFields
        + ", avroRecordName="
        + avroRecordName
        + ", parquetDictionary="
        + parquetDictionary
        + ", directIo="
        + directIo
        + '}';
  }

  /** Builder; {@link #build()} validates. */
  public static final class Builder {
    private long maxFileSizeBytes = DEFAULT_MAX_FILE_SIZE_BYTES;
    private long maxBlockSizeBytes = DEFAULT_MAX_BLOCK_SIZE_BYTES;
    private LogBlockFormat blockFormat = LogBlockFormat.AVRO;
    private ParquetCodec parquetCodec = ParquetCodec.SNAPPY;
    private boolean metaFields = true;
    private String avroRecordName = DEFAULT_AVRO_RECORD_NAME;
    private boolean parquetDictionary = true;
    private boolean directIo = true;

    private Builder() {}

    public Builder directIo(boolean value) {
      this.directIo = value;
      return this;
    }

    public Builder parquetDictionary(boolean value) {
      this.parquetDictionary = value;
      return this;
    }

    public Builder maxFileSizeBytes(long value) {
      this.maxFileSizeBytes = value;
      return this;
    }

    public Builder maxBlockSizeBytes(long value) {
      this.maxBlockSizeBytes = value;
      return this;
    }

    public Builder blockFormat(LogBlockFormat value) {
      this.blockFormat = Objects.requireNonNull(value, "blockFormat");
      return this;
    }

    public Builder parquetCodec(ParquetCodec value) {
      this.parquetCodec = Objects.requireNonNull(value, "parquetCodec");
      return this;
    }

    public Builder metaFields(boolean value) {
      this.metaFields = value;
      return this;
    }

    public Builder avroRecordName(String value) {
      this.avroRecordName = Objects.requireNonNull(value, "avroRecordName");
      return this;
    }

    public LogWriterOptions build() {
      if (maxFileSizeBytes <= 0) {
        throw new IllegalArgumentException(
            "maxFileSizeBytes must be positive, got " + maxFileSizeBytes);
      }
      // A block's length is read back as an int by Hudi; leave room for header and framing.
      long blockLimit = Integer.MAX_VALUE - (64L << 20);
      if (maxBlockSizeBytes <= 0 || maxBlockSizeBytes > blockLimit) {
        throw new IllegalArgumentException(
            "maxBlockSizeBytes must be in [1, "
                + blockLimit
                + "] (Hudi reads block lengths as int), got "
                + maxBlockSizeBytes);
      }
      if (avroRecordName.isEmpty() || avroRecordName.endsWith(".")) {
        throw new IllegalArgumentException(
            "avroRecordName must be a non-empty Avro full name, got '" + avroRecordName + "'");
      }
      return new LogWriterOptions(this);
    }
  }
}
