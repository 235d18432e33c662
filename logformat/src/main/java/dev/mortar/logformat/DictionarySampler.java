package dev.mortar.logformat;

import static org.apache.flink.table.data.binary.BinarySegmentUtils.getByte;
import static org.apache.flink.table.data.binary.BinarySegmentUtils.getInt;
import static org.apache.flink.table.data.binary.BinarySegmentUtils.getLong;
import static org.apache.flink.table.data.binary.BinarySegmentUtils.getShort;

import java.util.ArrayList;
import java.util.List;
import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinarySegmentUtils;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.parquet.column.ParquetProperties;

/**
 * Samples the first records of a Parquet log block or base file for a {@link DictionaryDecision},
 * reading each value's hash straight from the row's segments, and names the columns where
 * dictionary encoding cannot pay off.
 *
 * <p>Sampled: the record key, and every top-level data field of a type that is a Parquet INT32,
 * INT64, FLOAT, DOUBLE or BINARY column, as {@link BinaryRowParquetEncoder} writes it. Booleans
 * (parquet-mr gives them no dictionary) and the leaves of arrays, maps and rows keep parquet-mr's
 * default. Of the other meta fields, the commit time, partition path and file name hold one value
 * per block (a few per base file: the delta commits it compacts) and keep their dictionary; the
 * sequence number is distinct in every record and never gets one.
 */
final class DictionarySampler {
  /**
   * The dictionary page size the writers keep, parquet-mr's default; read through a call, as an
   * inlined constant would leave the bundle a reference to a class it relocates.
   */
  private static final int DICTIONARY_PAGE_BYTES =
      ParquetProperties.builder().build().getDictionaryPageSizeThreshold();

  private static final int RECORD_KEY = 2;
  private static final int SEQUENCE_NUMBER = 1;

  private enum Kind {
    BYTE,
    SHORT,
    INT,
    LONG,
    FLOAT,
    DOUBLE,
    BYTES,
    COMPACT_DECIMAL,
    MICROS_FROM_TIMESTAMP
  }

  private final boolean metaFields;
  private final int nullBitsBytes;
  private final String[] columns;

  /** The row position of each sampled column; -1 for the record key, which is given apart. */
  private final int[] fields;

  private final Kind[] kinds;
  private final DictionaryDecision decision;
  private int sampledRecords;

  /**
   * @param dataType the data fields, at positions {@code firstDataField} onwards of each row
   * @param metaFields whether the records have Hudi's meta fields, the record key sampled
   */
  DictionarySampler(RowType dataType, int firstDataField, boolean metaFields) {
    this.metaFields = metaFields;
    this.nullBitsBytes =
        BinaryRowData.calculateBitSetWidthInBytes(firstDataField + dataType.getFieldCount());
    List<String> names = new ArrayList<>();
    List<Integer> positions = new ArrayList<>();
    List<Kind> sampledKinds = new ArrayList<>();
    if (metaFields) {
      names.add(AvroSchemas.META_FIELDS.get(RECORD_KEY));
      positions.add(-1);
      sampledKinds.add(Kind.BYTES);
    }
    for (int i = 0; i < dataType.getFieldCount(); i++) {
      Kind kind = kindOf(dataType.getTypeAt(i));
      if (kind != null) {
        names.add(dataType.getFieldNames().get(i));
        positions.add(firstDataField + i);
        sampledKinds.add(kind);
      }
    }
    this.columns = names.toArray(String[]::new);
    this.fields = positions.stream().mapToInt(Integer::intValue).toArray();
    this.kinds = sampledKinds.toArray(Kind[]::new);
    this.decision = new DictionaryDecision(columns.length, DICTIONARY_PAGE_BYTES);
  }

  /** Whether enough records were sampled to decide. */
  boolean full() {
    return sampledRecords >= DictionaryDecision.SAMPLE_SIZE;
  }

  /**
   * Samples a record: its key ({@code keyLength} bytes at {@code keyOffset} of {@code keySegments},
   * ignored without meta fields) and its row.
   */
  void add(MemorySegment[] keySegments, int keyOffset, int keyLength, BinaryRowData row) {
    MemorySegment[] segments = row.getSegments();
    int base = row.getOffset();
    for (int column = 0; column < columns.length; column++) {
      int field = fields[column];
      if (field < 0) {
        addBytes(column, keySegments, keyOffset, keyLength);
      } else if (!row.isNullAt(field)) {
        addValue(column, kinds[column], segments, base, base + nullBitsBytes + field * 8);
      }
    }
    sampledRecords++;
  }

  /**
   * The columns whose dictionary cannot pay off, as parquet-mr column paths; starts the next
   * block's sample.
   */
  List<String> columnsWithoutDictionary() {
    List<String> without = new ArrayList<>();
    if (metaFields) {
      without.add(AvroSchemas.META_FIELDS.get(SEQUENCE_NUMBER));
    }
    for (int column = 0; column < columns.length; column++) {
      if (!decision.paysOff(column)) {
        without.add(columns[column]);
      }
    }
    decision.reset();
    sampledRecords = 0;
    return without;
  }

  private void addValue(int column, Kind kind, MemorySegment[] segments, int base, int slot) {
    switch (kind) {
      case BYTE -> decision.add(column, getByte(segments, slot), 4);
      case SHORT -> decision.add(column, getShort(segments, slot), 4);
      case INT, FLOAT -> decision.add(column, getInt(segments, slot), 4);
      case LONG, DOUBLE -> decision.add(column, hash(getLong(segments, slot)), 8);
      case BYTES -> {
        long position = ParquetBinaries.variablePosition(segments, base, slot);
        addBytes(column, segments, (int) (position >>> 32), (int) position);
      }
      case COMPACT_DECIMAL -> {
        long unscaled = getLong(segments, slot);
        decision.add(column, hash(unscaled), 4 + ParquetBinaries.compactDecimalLength(unscaled));
      }
      case MICROS_FROM_TIMESTAMP ->
          decision.add(
              column, hash(BinaryRowParquetEncoder.timestampMicros(segments, base, slot)), 8);
    }
  }

  private void addBytes(int column, MemorySegment[] segments, int offset, int length) {
    decision.add(column, BinarySegmentUtils.hash(segments, offset, length), 4 + length);
  }

  private static int hash(long value) {
    long mixed = value * 0x9E3779B97F4A7C15L;
    return (int) (mixed ^ (mixed >>> 32));
  }

  /** How a value of {@code type} is sampled; null for a type not sampled. */
  private static Kind kindOf(LogicalType type) {
    return switch (type.getTypeRoot()) {
      case TINYINT -> Kind.BYTE;
      case SMALLINT -> Kind.SHORT;
      case INTEGER, DATE, TIME_WITHOUT_TIME_ZONE -> Kind.INT;
      case BIGINT -> Kind.LONG;
      case FLOAT -> Kind.FLOAT;
      case DOUBLE -> Kind.DOUBLE;
      case CHAR, VARCHAR, BINARY, VARBINARY -> Kind.BYTES;
      case DECIMAL ->
          DecimalData.isCompact(((DecimalType) type).getPrecision())
              ? Kind.COMPACT_DECIMAL
              : Kind.BYTES;
      case TIMESTAMP_WITHOUT_TIME_ZONE -> timestampKind(((TimestampType) type).getPrecision());
      case TIMESTAMP_WITH_LOCAL_TIME_ZONE ->
          timestampKind(((LocalZonedTimestampType) type).getPrecision());
      default -> null;
    };
  }

  private static Kind timestampKind(int precision) {
    return TimestampData.isCompact(precision) ? Kind.LONG : Kind.MICROS_FROM_TIMESTAMP;
  }
}
