package dev.mortar.benchmark.logformat;

import dev.mortar.logformat.BlockBuffer;
import dev.mortar.logformat.InMemoryOutputFile;
import dev.mortar.logformat.ParquetCodec;
import dev.mortar.logformat.ParquetWriterBuilder;
import java.io.IOException;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.api.WriteSupport;

/**
 * Opens a new parquet-mr writer per block, each writing one block into the same in-memory buffer,
 * at the codec and dictionary setting of the run (the parquet-mr contenders' settings, those of
 * Mortar's writer), with the dictionary off in the columns named.
 */
final class ParquetMrBlockWriters<T> {
  private final InMemoryOutputFile file;
  private final WriteSupport<T> writeSupport;
  private final ParquetCodec codec;
  private final boolean dictionary;
  private final Set<String> columnsWithoutDictionary;
  private final Configuration configuration = new Configuration(false);

  /**
   * @param content the buffer each writer writes its block into, from its start
   * @param columnsWithoutDictionary dot paths of the columns written without a dictionary even when
   *     {@code dictionary} is on
   */
  ParquetMrBlockWriters(
      BlockBuffer content,
      WriteSupport<T> writeSupport,
      ParquetCodec codec,
      boolean dictionary,
      Set<String> columnsWithoutDictionary) {
    this.file = new InMemoryOutputFile(content);
    this.writeSupport = writeSupport;
    this.codec = codec;
    this.dictionary = dictionary;
    this.columnsWithoutDictionary = columnsWithoutDictionary;
  }

  /** A writer of the next block; closing it finishes the block. */
  ParquetWriter<T> open() throws IOException {
    ParquetWriterBuilder<T> builder =
        new ParquetWriterBuilder<>(file, writeSupport)
            .withConf(configuration)
            .withWriteMode(ParquetFileWriter.Mode.OVERWRITE)
            .withCompressionCodec(codec.parquetName())
            .withDictionaryEncoding(dictionary);
    for (String column : columnsWithoutDictionary) {
      builder.withDictionaryEncoding(column, false);
    }
    return builder.build();
  }
}
