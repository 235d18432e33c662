package dev.mortar.logformat;

import java.util.Objects;
import javax.annotation.Nullable;

/**
 * Immutable options of a {@link LogFileWriter}. The {@code log.*} ones are declared, with their
 * defaults, in {@link LogFormatOptions}, which builds these from a configuration; the defaults are
 * Hudi 1.1's Flink defaults — 1 GiB files ({@code write.log.max.size}), Avro blocks — except the
 * size of Avro blocks ({@link LogBlockFormat#defaultMaxBlockSizeBytes()}). The other two come from
 * the table: meta fields populated (Hudi's default) and the Avro record name.
 */
public final class LogWriterOptions {
  private static final String DEFAULT_AVRO_RECORD_NAME = "record";

  /** A block's length is read back as an int by Hudi; this leaves room for header and framing. */
  private static final long MAX_BLOCK_SIZE_LIMIT = Integer.MAX_VALUE - (64L << 20);

  /** Room in a new content buffer for the record that takes a block past its size. */
  private static final int CROSSING_RECORD_ROOM = 64 << 10;

  private final long maxFileSizeBytes;
  private final long maxBlockSizeBytes;

  /** Whether the block size was set, rather than the block format's default. */
  private final boolean maxBlockSizeSet;

  private final LogBlockFormat blockFormat;
  private final ParquetCodec parquetCodec;
  private final boolean metaFields;
  private final String avroRecordName;
  private final boolean parquetDictionary;
  private final boolean parquetDictionaryPerColumn;
  private final boolean directIo;

  private LogWriterOptions(Builder builder) {
    this.maxFileSizeBytes = builder.maxFileSizeBytes;
    this.maxBlockSizeSet = builder.maxBlockSizeBytes != null;
    this.maxBlockSizeBytes =
        maxBlockSizeSet
            ? builder.maxBlockSizeBytes
            : builder.blockFormat.defaultMaxBlockSizeBytes();
    this.blockFormat = builder.blockFormat;
    this.parquetCodec = builder.parquetCodec;
    this.metaFields = builder.metaFields;
    this.avroRecordName = builder.avroRecordName;
    this.parquetDictionary = builder.parquetDictionary;
    this.parquetDictionaryPerColumn = builder.parquetDictionaryPerColumn;
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

  /**
   * A data block is cut once its encoded content has reached this size; unless set, the block
   * format's default.
   */
  public long maxBlockSizeBytes() {
    return maxBlockSizeBytes;
  }

  /**
   * A new scratch for one thread's writers. Its block buffer holds a whole block, at most the
   * default Avro block, plus room for the record that crosses the limit, so that with default Avro
   * blocks it never grows. Larger blocks grow it, by doubling, to the largest block written.
   */
  public BlockScratch newBlockScratch() {
    long firstSize = Math.min(maxBlockSizeBytes, LogBlockFormat.AVRO.defaultMaxBlockSizeBytes());
    return new BlockScratch(
        new BlockBuffer((int) firstSize + CROSSING_RECORD_ROOM), new ParquetWriterResources());
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

  /**
   * Whether each Parquet block (with {@link #parquetDictionary()}) and each base file compaction
   * writes decides per column, from its first records, whether a dictionary can pay off ({@code
   * DictionaryDecision}), rather than trying one for every column.
   */
  public boolean parquetDictionaryPerColumn() {
    return parquetDictionaryPerColumn;
  }

  /** Full name of the Avro record ({@code namespace.name}), e.g. {@code hoodie.t1.t1_record}. */
  public String avroRecordName() {
    return avroRecordName;
  }

  public Builder toBuilder() {
    Builder builder =
        builder()
            .maxFileSizeBytes(maxFileSizeBytes)
            .blockFormat(blockFormat)
            .parquetCodec(parquetCodec)
            .metaFields(metaFields)
            .avroRecordName(avroRecordName)
            .parquetDictionary(parquetDictionary)
            .parquetDictionaryPerColumn(parquetDictionaryPerColumn)
            .directIo(directIo);
    return maxBlockSizeSet ? builder.maxBlockSizeBytes(maxBlockSizeBytes) : builder;
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
        + ", parquetDictionaryPerColumn="
        + parquetDictionaryPerColumn
        + ", directIo="
        + directIo
        + '}';
  }

  /**
   * Builder, starting from the defaults of {@link LogFormatOptions}; {@link #build()} validates and
   * names the option of a bad value.
   */
  public static final class Builder {
    private long maxFileSizeBytes = LogFormatOptions.MAX_FILE_SIZE.defaultValue().getBytes();
    @Nullable private Long maxBlockSizeBytes;
    private LogBlockFormat blockFormat = LogFormatOptions.BLOCK_FORMAT.defaultValue();
    private ParquetCodec parquetCodec = LogFormatOptions.PARQUET_CODEC.defaultValue();
    private boolean metaFields = true;
    private String avroRecordName = DEFAULT_AVRO_RECORD_NAME;
    private boolean parquetDictionary = LogFormatOptions.PARQUET_DICTIONARY.defaultValue();
    private boolean parquetDictionaryPerColumn =
        LogFormatOptions.PARQUET_DICTIONARY_PER_COLUMN.defaultValue();
    private boolean directIo = LogFormatOptions.DIRECT_IO.defaultValue();

    private Builder() {}

    public Builder directIo(boolean value) {
      this.directIo = value;
      return this;
    }

    public Builder parquetDictionary(boolean value) {
      this.parquetDictionary = value;
      return this;
    }

    public Builder parquetDictionaryPerColumn(boolean value) {
      this.parquetDictionaryPerColumn = value;
      return this;
    }

    public Builder maxFileSizeBytes(long value) {
      this.maxFileSizeBytes = value;
      return this;
    }

    /** The block size; unless set, the block format's default. */
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
            "'"
                + LogFormatOptions.MAX_FILE_SIZE.key()
                + "' must be positive, got "
                + maxFileSizeBytes
                + " bytes");
      }
      if (maxBlockSizeBytes != null
          && (maxBlockSizeBytes <= 0 || maxBlockSizeBytes > MAX_BLOCK_SIZE_LIMIT)) {
        throw new IllegalArgumentException(
            "'"
                + LogFormatOptions.MAX_BLOCK_SIZE.key()
                + "' must be in [1, "
                + MAX_BLOCK_SIZE_LIMIT
                + "] bytes (Hudi reads block lengths as int), got "
                + maxBlockSizeBytes
                + " bytes");
      }
      if (avroRecordName.isEmpty() || avroRecordName.endsWith(".")) {
        throw new IllegalArgumentException(
            "avroRecordName must be a non-empty Avro full name, got '" + avroRecordName + "'");
      }
      return new LogWriterOptions(this);
    }
  }
}
