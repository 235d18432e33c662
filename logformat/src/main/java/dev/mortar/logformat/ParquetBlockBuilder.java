package dev.mortar.logformat;

import java.io.IOException;
import org.apache.avro.Schema;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.api.Binary;

/**
 * Content of a PARQUET_DATA_BLOCK (shared/spec/hudi-format.md §9.2): one complete Parquet file
 * ({@code PAR1 … footer … PAR1}) written by parquet-mr into a reusable in-memory buffer. A new
 * {@link ParquetWriter} is opened for each block (parquet-mr writers are single-use); the buffer
 * and the write support are reused.
 */
public final class ParquetBlockBuilder implements DataBlockBuilder {
  private final RowDataWriteSupport writeSupport;
  private final MetaFieldValues metaFields;
  private final ParquetCodec codec;
  private final boolean dictionary;
  private final BlockBuffer content;
  private final OutputFile outputFile;
  private final Configuration configuration = new Configuration(false);
  private final Binary commitTime;
  private final Binary partitionPath;
  private final Binary fileId;
  private ParquetWriter<RowData> writer;
  private int recordCount;

  public ParquetBlockBuilder(
      RowType rowType,
      Schema avroSchema,
      MetaFieldValues metaFields,
      ParquetCodec codec,
      boolean dictionary,
      BlockBuffer content) {
    this.writeSupport =
        new RowDataWriteSupport(
            rowType, avroSchema.getFullName(), avroSchema.toString(), metaFields != null);
    this.metaFields = metaFields;
    this.codec = codec;
    this.dictionary = dictionary;
    this.content = content;
    this.outputFile = new InMemoryOutputFile(content);
    this.commitTime =
        metaFields == null ? null : Binary.fromConstantByteArray(metaFields.instant());
    this.partitionPath =
        metaFields == null ? null : Binary.fromConstantByteArray(metaFields.partitionPath());
    this.fileId = metaFields == null ? null : Binary.fromConstantByteArray(metaFields.fileId());
  }

  @Override
  public void add(BinaryStringData recordKey, long seqCounter, BinaryRowData row)
      throws IOException {
    if (writer == null) {
      writer =
          new ParquetWriterBuilder(outputFile, writeSupport)
              .withConf(configuration)
              .withWriteMode(ParquetFileWriter.Mode.OVERWRITE)
              .withCompressionCodec(codec.parquetName())
              .withDictionaryEncoding(dictionary)
              .build();
    }
    if (metaFields != null) {
      writeSupport.setMetaValues(
          commitTime,
          Binary.fromString(metaFields.seqno(seqCounter)),
          Binary.fromConstantByteArray(recordKey.toBytes()),
          partitionPath,
          fileId);
    }
    writer.write(row);
    recordCount++;
  }

  @Override
  public int recordCount() {
    return recordCount;
  }

  @Override
  public long bufferedBytes() {
    return writer == null ? 0 : writer.getDataSize();
  }

  @Override
  public BlockBuffer finishBlock() throws IOException {
    writer.close();
    writer = null;
    recordCount = 0;
    return content;
  }
}
