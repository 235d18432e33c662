package dev.mortar.logformat;

import java.io.IOException;
import org.apache.avro.Schema;
import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.RecordConsumer;

/**
 * Content of a PARQUET_DATA_BLOCK (shared/spec/hudi-format.md §9.2): one complete Parquet file
 * ({@code PAR1 … footer … PAR1}) written by parquet-mr into a reusable in-memory buffer. A new
 * {@link ParquetWriter} is opened for each block (parquet-mr writers are single-use); the buffer
 * and the write support are reused.
 *
 * <p>With the dictionary decided per column, the first records of each block are held as copies
 * ({@link PendingRecords}) and sampled ({@link DictionarySampler}) until the sample is full, the
 * held bytes reach {@link #PENDING_BYTES_LIMIT} or the block ends; then the writer is opened
 * without a dictionary for the columns where it cannot pay off, and the held records go first.
 */
public final class ParquetBlockBuilder implements DataBlockBuilder {
  /** Held bytes past which the writer is opened even if the sample is not full. */
  static final int PENDING_BYTES_LIMIT = 1 << 20;

  private final BinaryRowWriteSupport writeSupport;
  private final LogMetaColumns metaColumns;
  private final ParquetCodec codec;
  private final boolean dictionary;
  private final BlockBuffer content;
  private final OutputFile outputFile;
  private final DictionarySampler sampler;
  private final PendingRecords pending;
  private final Configuration configuration = new Configuration(false);
  private ParquetWriter<BinaryRowData> writer;
  private int recordCount;

  /**
   * {@code metaFields} null means the schema has no meta fields; {@code dictionaryPerColumn}: with
   * {@code dictionary} on, whether each block decides per column, from its first records, where to
   * try it (else every column tries it).
   */
  public ParquetBlockBuilder(
      RowType rowType,
      Schema avroSchema,
      MetaFieldValues metaFields,
      ParquetCodec codec,
      boolean dictionary,
      boolean dictionaryPerColumn,
      BlockBuffer content) {
    this.metaColumns = metaFields == null ? null : new LogMetaColumns(metaFields);
    this.writeSupport = new BinaryRowWriteSupport(rowType, 0, avroSchema, metaColumns);
    this.codec = codec;
    this.dictionary = dictionary;
    this.content = content;
    this.outputFile = new InMemoryOutputFile(content);
    boolean sampled = dictionary && dictionaryPerColumn;
    this.sampler = sampled ? new DictionarySampler(rowType, metaFields != null) : null;
    this.pending = sampled ? new PendingRecords(rowType.getFieldCount()) : null;
  }

  @Override
  public void add(BinaryStringData recordKey, long seqCounter, BinaryRowData row)
      throws IOException {
    recordKey.ensureMaterialized();
    recordCount++;
    if (writer == null && sampler != null) {
      sampler.add(recordKey.getSegments(), recordKey.getOffset(), recordKey.getSizeInBytes(), row);
      pending.add(recordKey, seqCounter, row);
      if (sampler.full() || pending.sizeInBytes() >= PENDING_BYTES_LIMIT) {
        openWriter();
      }
      return;
    }
    if (writer == null) {
      openWriter();
    }
    write(
        recordKey.getSegments(),
        recordKey.getOffset(),
        recordKey.getSizeInBytes(),
        seqCounter,
        row);
  }

  private void openWriter() throws IOException {
    ParquetWriterBuilder<BinaryRowData> builder =
        new ParquetWriterBuilder<>(outputFile, writeSupport)
            .withConf(configuration)
            .withWriteMode(ParquetFileWriter.Mode.OVERWRITE)
            .withCompressionCodec(codec.parquetName())
            .withDictionaryEncoding(dictionary);
    if (sampler != null) {
      for (String column : sampler.columnsWithoutDictionary()) {
        builder.withDictionaryEncoding(column, false);
      }
    }
    writer = builder.build();
    if (pending != null) {
      pending.drainTo(this::write);
    }
  }

  private void write(
      MemorySegment[] keySegments, int keyOffset, int keyLength, long seqCounter, BinaryRowData row)
      throws IOException {
    if (metaColumns != null) {
      metaColumns.next(keySegments, keyOffset, keyLength, seqCounter);
    }
    writer.write(row);
  }

  @Override
  public int recordCount() {
    return recordCount;
  }

  @Override
  public long bufferedBytes() {
    if (writer != null) {
      return writer.getDataSize();
    }
    return pending == null ? 0 : pending.sizeInBytes();
  }

  @Override
  public BlockBuffer finishBlock() throws IOException {
    if (writer == null) {
      openWriter();
    }
    writer.close();
    writer = null;
    recordCount = 0;
    return content;
  }

  /**
   * The meta fields of a log record: the writer's commit time, partition path and fileId, the
   * sequence number built in a reused buffer, the record key read from its segments.
   */
  private static final class LogMetaColumns implements ParquetMetaColumns {
    private final Binary commitTime;
    private final Binary partitionPath;
    private final Binary fileId;
    private final byte[] seqnoPrefix;
    private final BlockBuffer seqno = new BlockBuffer(64);
    private final ParquetBinaries binaries = new ParquetBinaries();
    private MemorySegment[] keySegments;
    private int keyOffset;
    private int keyLength;

    LogMetaColumns(MetaFieldValues values) {
      this.commitTime = Binary.fromConstantByteArray(values.instant());
      this.partitionPath = Binary.fromConstantByteArray(values.partitionPath());
      this.fileId = Binary.fromConstantByteArray(values.fileId());
      this.seqnoPrefix = values.seqnoPrefix();
    }

    /** Sets the key and sequence number counter of the next record. */
    void next(MemorySegment[] keySegments, int keyOffset, int keyLength, long seqCounter) {
      this.keySegments = keySegments;
      this.keyOffset = keyOffset;
      this.keyLength = keyLength;
      seqno.reset();
      seqno.writeBytes(seqnoPrefix, 0, seqnoPrefix.length);
      seqno.writeAsciiDigits(seqCounter);
    }

    @Override
    public void write(RecordConsumer consumer, BinaryRowData row) {
      ParquetMetaColumns.writeField(consumer, 0, commitTime);
      ParquetMetaColumns.writeField(
          consumer, 1, Binary.fromReusedByteArray(seqno.array(), 0, seqno.size()));
      ParquetMetaColumns.writeField(consumer, 2, binaries.of(keySegments, keyOffset, keyLength));
      ParquetMetaColumns.writeField(consumer, 3, partitionPath);
      ParquetMetaColumns.writeField(consumer, 4, fileId);
    }
  }
}
