package dev.mortar.logformat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.avro.generic.IndexedRecord;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hudi.common.model.DeleteRecord;
import org.apache.hudi.common.model.HoodieLogFile;
import org.apache.hudi.common.model.HoodieRecord;
import org.apache.hudi.common.table.log.HoodieLogFileReader;
import org.apache.hudi.common.table.log.HoodieLogFormat;
import org.apache.hudi.common.table.log.block.HoodieDataBlock;
import org.apache.hudi.common.table.log.block.HoodieDeleteBlock;
import org.apache.hudi.common.table.log.block.HoodieLogBlock;
import org.apache.hudi.common.util.collection.ClosableIterator;
import org.apache.hudi.storage.StoragePath;
import org.apache.hudi.storage.hadoop.HoodieHadoopStorage;

/** Reads a log file with Hudi 1.1's own reader ({@code HoodieLogFormat.newReader}, spec §14 a). */
final class HudiLogReader {
  /** One block as Hudi's reader returned it. */
  record Block(
      HoodieLogBlock.HoodieLogBlockType type,
      Map<HoodieLogBlock.HeaderMetadataType, String> header,
      List<IndexedRecord> records,
      List<DeleteRecord> deletes) {}

  private HudiLogReader() {}

  /** Through {@code HoodieLogFormat.newReader}, the reader Hudi's scanners use. */
  static List<Block> read(FileSystem fs, Path file) throws IOException {
    HoodieLogFile logFile = logFile(fs, file);
    return read(HoodieLogFormat.newReader(new HoodieHadoopStorage(fs), logFile, null));
  }

  /**
   * The same reader class with a small read buffer instead of the default 16 MB, for tests that
   * read hundreds of tiny files.
   */
  static List<Block> readSmallBuffer(FileSystem fs, Path file) throws IOException {
    HoodieLogFile logFile = logFile(fs, file);
    return read(new HoodieLogFileReader(new HoodieHadoopStorage(fs), logFile, null, 64 << 10));
  }

  private static HoodieLogFile logFile(FileSystem fs, Path file) {
    return new HoodieLogFile(new StoragePath(fs.makeQualified(file).toUri()));
  }

  private static List<Block> read(HoodieLogFormat.Reader opened) throws IOException {
    List<Block> blocks = new ArrayList<>();
    try (HoodieLogFormat.Reader reader = opened) {
      while (reader.hasNext()) {
        HoodieLogBlock block = reader.next();
        List<IndexedRecord> records = new ArrayList<>();
        List<DeleteRecord> deletes = new ArrayList<>();
        if (block instanceof HoodieDataBlock) {
          try (ClosableIterator<HoodieRecord<IndexedRecord>> it =
              ((HoodieDataBlock) block).getRecordIterator(HoodieRecord.HoodieRecordType.AVRO)) {
            while (it.hasNext()) {
              records.add(it.next().getData());
            }
          }
        } else if (block instanceof HoodieDeleteBlock) {
          deletes.addAll(Arrays.asList(((HoodieDeleteBlock) block).getRecordsToDelete()));
        }
        blocks.add(new Block(block.getBlockType(), block.getLogBlockHeader(), records, deletes));
      }
    }
    return blocks;
  }
}
