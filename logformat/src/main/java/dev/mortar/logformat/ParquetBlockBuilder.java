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
 * {@link ParquetWriter} is opened for each block (parquet-mr writers are single-use), by a {@link
 * DeferredParquetWriter} that, with the dictionary decided per column, opens it once the block's
 * first records have decided it; the write support and the thread's {@link BlockScratch} (the
 * buffer, parquet-mr's buffers and compressors) are reused.
 */
public final class ParquetBlockBuilder implements DataBlockBuilder {
  private final DeferredParquetWriter writer;
  private final BlockBuffer content;
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
      BlockScratch scratch) {
    LogMetaColumns metaColumns = metaFields == null ? null : new LogMetaColumns(metaFields);
    BinaryRowWriteSupport writeSupport =
        new BinaryRowWriteSupport(rowType, 0, avroSchema, metaColumns);
    OutputFile outputFile = new InMemoryOutputFile(scratch.content());
    Configuration configuration = new Configuration(false);
    this.writer =
        new DeferredParquetWriter(
            () ->
                new ParquetWriterBuilder<>(outputFile, writeSupport)
                    .withConf(configuration)
                    .withWriteMode(ParquetFileWriter.Mode.OVERWRITE)
                    .withCompressionCodec(codec.parquetName())
                    .withDictionaryEncoding(dictionary),
            dictionary && dictionaryPerColumn
                ? new DictionarySampler(rowType, 0, metaFields != null)
                : null,
            rowType.getFieldCount(),
            metaColumns == null ? null : metaColumns::next,
            scratch.parquet());
    this.content = scratch.content();
  }

  @Override
  public void add(BinaryStringData recordKey, long seqCounter, BinaryRowData row)
      throws IOException {
    recordKey.ensureMaterialized();
    recordCount++;
    writer.add(
        recordKey.getSegments(),
        recordKey.getOffset(),
        recordKey.getSizeInBytes(),
        seqCounter,
        row);
  }

  @Override
  public int recordCount() {
    return recordCount;
  }

  @Override
  public long bufferedBytes() {
    return writer.bufferedBytes();
  }

  @Override
  public BlockBuffer finishBlock() throws IOException {
    writer.finish();
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
