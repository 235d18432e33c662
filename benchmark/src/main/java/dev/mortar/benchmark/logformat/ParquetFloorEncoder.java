package dev.mortar.benchmark.logformat;

import dev.mortar.logformat.AvroSchemas;
import dev.mortar.logformat.ParquetCodec;
import dev.mortar.logformat.ParquetSchemas;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.avro.Schema;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.io.api.Binary;

/**
 * {@link ParquetBlockContender#PARQUET_MR_FLOOR}: parquet-mr's own cost of a block, which no writer
 * on parquet-mr can beat. Every value of every record (meta fields included) is made in set-up, as
 * a {@link Binary} or a long; the timed loop hands them to parquet-mr's record consumer ({@link
 * PrebuiltValuesWriteSupport}), so it measures parquet-mr's column writers, encodings, compression
 * and a new writer per block, nothing else. The file is the one {@link
 * ParquetBlockContender#MORTAR_DICTIONARY_PER_COLUMN} writes: same schema ({@link ParquetSchemas}),
 * footer, codec and, with the dictionary on, the columns Mortar's per-column decision leaves
 * without one (read in set-up from the footer of Mortar's block of the same rows).
 *
 * <p>Flat rows of BIGINT, CHAR/VARCHAR and TIMESTAMP fields without nulls only (the workloads'
 * rows).
 */
final class ParquetFloorEncoder extends BufferedBlockEncoder {
  private final List<PrebuiltValuesWriteSupport.Values> records;
  private final PrebuiltValuesWriteSupport writeSupport;
  private final ParquetMrBlockWriters<PrebuiltValuesWriteSupport.Values> writers;

  ParquetFloorEncoder(
      RowType rowType,
      List<BinaryRowData> rows,
      List<BinaryStringData> keys,
      ParquetCodec codec,
      boolean dictionary) {
    Schema avroSchema = AvroSchemas.of(rowType, "record", true);
    this.writeSupport =
        new PrebuiltValuesWriteSupport(
            ParquetSchemas.of(rowType, avroSchema, true),
            Map.of("parquet.avro.schema", avroSchema.toString()));
    Set<String> columnsWithoutDictionary =
        dictionary ? mortarColumnsWithoutDictionary(rowType, rows, keys, codec) : Set.of();
    this.writers =
        new ParquetMrBlockWriters<>(
            content, writeSupport, codec, dictionary, columnsWithoutDictionary);
    this.records = new ArrayList<>(rows.size());
    for (int i = 0; i < rows.size(); i++) {
      records.add(values(rowType, rows.get(i), BlockInput.metaFieldValues(keys.get(i), i), i));
    }
  }

  private static Set<String> mortarColumnsWithoutDictionary(
      RowType rowType, List<BinaryRowData> rows, List<BinaryStringData> keys, ParquetCodec codec) {
    ParquetBlockContender.Encoder mortar =
        ParquetBlockContender.MORTAR_DICTIONARY_PER_COLUMN.prepare(
            rowType, rows, keys, codec, true);
    try {
      mortar.encodeBlock();
      return ParquetFooters.columnsWithoutDictionary(mortar.lastBlock());
    } catch (IOException e) {
      throw new UncheckedIOException("Mortar's block of the floor's rows failed", e);
    }
  }

  /** The values of one record, in the columns' order: meta fields, then the row's fields. */
  private PrebuiltValuesWriteSupport.Values values(
      RowType rowType, BinaryRowData row, String[] metaValues, int record) {
    int columns = metaValues.length + rowType.getFieldCount();
    int binaryColumns = 0;
    for (int i = 0; i < columns; i++) {
      binaryColumns += writeSupport.isBinary(i) ? 1 : 0;
    }
    Binary[] binaries = new Binary[binaryColumns];
    long[] longs = new long[columns - binaryColumns];
    int b = 0;
    for (String metaValue : metaValues) {
      binaries[b++] = Binary.fromString(metaValue);
    }
    int l = 0;
    for (int f = 0; f < rowType.getFieldCount(); f++) {
      LogicalType type = rowType.getTypeAt(f);
      String field = rowType.getFieldNames().get(f);
      if (row.isNullAt(f)) {
        throw new IllegalArgumentException(
            "field " + field + " of record " + record + " is null; the floor takes no nulls");
      }
      switch (type.getTypeRoot()) {
        case BIGINT -> longs[l++] = row.getLong(f);
        case TIMESTAMP_WITHOUT_TIME_ZONE ->
            longs[l++] = timestamp(row, f, ((TimestampType) type).getPrecision());
        case TIMESTAMP_WITH_LOCAL_TIME_ZONE ->
            longs[l++] = timestamp(row, f, ((LocalZonedTimestampType) type).getPrecision());
        case CHAR, VARCHAR ->
            binaries[b++] = Binary.fromConstantByteArray(row.getString(f).toBytes());
        default ->
            throw new IllegalArgumentException(
                "field "
                    + field
                    + " is "
                    + type.asSummaryString()
                    + "; the floor takes BIGINT, CHAR, VARCHAR and TIMESTAMP fields");
      }
    }
    return new PrebuiltValuesWriteSupport.Values(binaries, longs);
  }

  /** The timestamp as Mortar writes it: millis up to precision 3, else micros. */
  private static long timestamp(BinaryRowData row, int field, int precision) {
    TimestampData value = row.getTimestamp(field, precision);
    return TimestampData.isCompact(precision)
        ? value.getMillisecond()
        : value.getMillisecond() * 1000 + value.getNanoOfMillisecond() / 1000;
  }

  @Override
  void writeBlock() throws IOException {
    ParquetWriter<PrebuiltValuesWriteSupport.Values> writer = writers.open();
    for (int i = 0; i < records.size(); i++) {
      writer.write(records.get(i));
    }
    writer.close();
  }
}
