package dev.mortar.benchmark.logformat;

import dev.mortar.logformat.AvroSchemas;
import dev.mortar.logformat.BlockScratch;
import dev.mortar.logformat.MetaFieldValues;
import dev.mortar.logformat.ParquetBlockBuilder;
import dev.mortar.logformat.ParquetCodec;
import dev.mortar.logformat.ParquetWriterResources;
import java.io.IOException;
import java.util.List;
import java.util.Set;
import org.apache.avro.Schema;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.io.api.Binary;

/**
 * Ways to write the content of one PARQUET_DATA_BLOCK (one Parquet file with the five meta fields)
 * from {@code BinaryRowData}, with the same codec and dictionary setting. The first two write the
 * same bytes.
 *
 * <ul>
 *   <li>{@link #MORTAR}: {@link ParquetBlockBuilder}, values straight from the row's memory
 *       segments, every column trying a dictionary (when it is on) as in Hudi's writer.
 *   <li>{@link #ROW_DATA_GETTERS}: Mortar's path before issue 30 ({@link
 *       RowDataGettersWriteSupport}), values through {@code RowData} getters.
 *   <li>{@link #MORTAR_DICTIONARY_PER_COLUMN}: {@link #MORTAR} with the dictionary decided per
 *       column from the block's first records (the default of {@code
 *       log.parquet.dictionary.per-column}); its blocks differ where a column goes without.
 *   <li>{@link #PAIMON}: Paimon's own Parquet writer ({@link PaimonParquetEncoder}) on the same
 *       columns, every column trying a dictionary (when it is on), as in Paimon's tables.
 *   <li>{@link #PARQUET_MR_FLOOR}: parquet-mr alone, fed values made in set-up ({@link
 *       ParquetFloorEncoder}); it writes {@link #MORTAR_DICTIONARY_PER_COLUMN}'s bytes. Flat rows
 *       of the workloads' types only.
 * </ul>
 *
 * All open a new parquet-mr writer per block; Mortar's two keep one thread's buffers and
 * compressors across blocks ({@code ParquetWriterResources}), as a flush thread does.
 */
public enum ParquetBlockContender {
  MORTAR,
  ROW_DATA_GETTERS,
  MORTAR_DICTIONARY_PER_COLUMN,
  PAIMON,
  PARQUET_MR_FLOOR;

  /** Writes blocks of the workload input. */
  public Encoder prepare(BlockInput input, ParquetCodec codec, boolean dictionary) {
    return prepare(input.schema.rowType(), input.rows, input.keys, codec, dictionary);
  }

  /** Writes blocks of {@code rows}, whose record keys are {@code keys}. */
  public Encoder prepare(
      RowType rowType,
      List<BinaryRowData> rows,
      List<BinaryStringData> keys,
      ParquetCodec codec,
      boolean dictionary) {
    Schema avroSchema = AvroSchemas.of(rowType, "record", true);
    return switch (this) {
      case MORTAR -> new MortarEncoder(rowType, avroSchema, rows, keys, codec, dictionary, false);
      case MORTAR_DICTIONARY_PER_COLUMN ->
          new MortarEncoder(rowType, avroSchema, rows, keys, codec, dictionary, true);
      case ROW_DATA_GETTERS ->
          new RowDataGettersEncoder(rowType, avroSchema, rows, keys, codec, dictionary);
      case PAIMON -> new PaimonParquetEncoder(rowType, rows, keys, codec, dictionary);
      case PARQUET_MR_FLOOR -> new ParquetFloorEncoder(rowType, rows, keys, codec, dictionary);
    };
  }

  /** One contender set up for one input. */
  public interface Encoder {
    /** Writes all rows of the input as one block; returns the block content size in bytes. */
    int encodeBlock() throws IOException;

    /** The content of the last block (for equality checks, not timed). */
    byte[] lastBlock();
  }

  private static final class MortarEncoder extends BufferedBlockEncoder {
    private final List<BinaryRowData> rows;
    private final List<BinaryStringData> keys;
    private final ParquetBlockBuilder builder;

    MortarEncoder(
        RowType rowType,
        Schema avroSchema,
        List<BinaryRowData> rows,
        List<BinaryStringData> keys,
        ParquetCodec codec,
        boolean dictionary,
        boolean dictionaryPerColumn) {
      this.rows = rows;
      this.keys = keys;
      MetaFieldValues meta =
          new MetaFieldValues(
              BlockInput.INSTANT, BlockInput.WRITE_TOKEN, BlockInput.PARTITION, BlockInput.FILE_ID);
      this.builder =
          new ParquetBlockBuilder(
              rowType,
              avroSchema,
              meta,
              codec,
              dictionary,
              dictionaryPerColumn,
              new BlockScratch(content, new ParquetWriterResources()));
    }

    @Override
    void writeBlock() throws IOException {
      for (int i = 0; i < rows.size(); i++) {
        builder.add(keys.get(i), i, rows.get(i));
      }
      builder.finishBlock();
    }
  }

  private static final class RowDataGettersEncoder extends BufferedBlockEncoder {
    private final List<BinaryRowData> rows;
    private final List<BinaryStringData> keys;
    private final RowDataGettersWriteSupport writeSupport;
    private final ParquetMrBlockWriters<RowData> writers;
    private final Binary instant = Binary.fromString(BlockInput.INSTANT);
    private final Binary partition = Binary.fromString(BlockInput.PARTITION);
    private final Binary fileId = Binary.fromString(BlockInput.FILE_ID);
    private final String seqnoPrefix = BlockInput.SEQNO_PREFIX;

    RowDataGettersEncoder(
        RowType rowType,
        Schema avroSchema,
        List<BinaryRowData> rows,
        List<BinaryStringData> keys,
        ParquetCodec codec,
        boolean dictionary) {
      this.rows = rows;
      this.keys = keys;
      this.writeSupport = new RowDataGettersWriteSupport(rowType, avroSchema, true);
      this.writers =
          new ParquetMrBlockWriters<>(content, writeSupport, codec, dictionary, Set.of());
    }

    @Override
    void writeBlock() throws IOException {
      ParquetWriter<RowData> writer = writers.open();
      for (int i = 0; i < rows.size(); i++) {
        writeSupport.setMetaValues(
            instant,
            Binary.fromString(seqnoPrefix + i),
            Binary.fromConstantByteArray(keys.get(i).toBytes()),
            partition,
            fileId);
        writer.write(rows.get(i));
      }
      writer.close();
    }
  }
}
