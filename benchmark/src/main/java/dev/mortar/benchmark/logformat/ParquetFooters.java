package dev.mortar.benchmark.logformat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Set;
import java.util.TreeSet;
import org.apache.parquet.format.converter.ParquetMetadataConverter;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;

/**
 * Reads the footer of a Parquet file held in memory. The file ends {@code … footer | footer length
 * (4 bytes, little-endian) | PAR1}.
 */
final class ParquetFooters {
  private static final int TAIL_BYTES = 8;

  private ParquetFooters() {}

  static ParquetMetadata read(byte[] file) throws IOException {
    int lengthAt = file.length - TAIL_BYTES;
    int length = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN).getInt(lengthAt);
    return new ParquetMetadataConverter()
        .readParquetMetadata(
            new ByteArrayInputStream(file, lengthAt - length, length),
            ParquetMetadataConverter.NO_FILTER);
  }

  /** The dot paths of the columns with no dictionary page in any row group of {@code file}. */
  static Set<String> columnsWithoutDictionary(byte[] file) throws IOException {
    Set<String> withDictionary = new TreeSet<>();
    Set<String> without = new TreeSet<>();
    for (BlockMetaData rowGroup : read(file).getBlocks()) {
      for (ColumnChunkMetaData column : rowGroup.getColumns()) {
        (column.hasDictionaryPage() ? withDictionary : without).add(column.getPath().toDotString());
      }
    }
    without.removeAll(withDictionary);
    return without;
  }
}
