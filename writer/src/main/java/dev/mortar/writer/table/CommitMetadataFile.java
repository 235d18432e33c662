package dev.mortar.writer.table;

import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/**
 * The content of a completed deltacommit {@code <T>_<C>.deltacommit} (§4): an Avro object container
 * file, codec null, holding one {@code org.apache.hudi.avro.model.HoodieCommitMetadata} record. The
 * schema is Hudi 1.1.1's, carried as a resource so production code needs no hudi-common. Values are
 * the ones Hudi's append handle and its POJO-to-Avro conversion produce: one {@code
 * HoodieWriteStat} per log file, {@code prevCommit} = this instant, counters Hudi does not set
 * written as 0, {@code compacted=false}, {@code operationType=UPSERT}, {@code version} null and the
 * writer schema (without meta fields) under {@code extraMetadata["schema"]}.
 */
final class CommitMetadataFile {
  static final Schema COMMIT_METADATA =
      TimelineAvro.schema(CommitMetadataFile.class, "HoodieCommitMetadata.avsc");
  private static final Schema WRITE_STAT =
      COMMIT_METADATA
          .getField("partitionToWriteStats")
          .schema()
          .getTypes()
          .get(1)
          .getValueType()
          .getElementType();
  private static final Schema RUNTIME_STATS =
      WRITE_STAT.getField("runtimeStats").schema().getTypes().get(1);
  private static final String[] ZERO_COUNTERS = {
    "totalWriteErrors",
    "totalLogRecords",
    "totalUpdatedRecordsCompacted",
    "totalCorruptLogBlock",
    "totalRollbackBlocks",
    "totalLogFilesCompacted",
    "totalLogReadTimeMs",
    "totalLogSizeCompacted",
    "numUpdates"
  };

  private CommitMetadataFile() {}

  static void write(OutputStream out, String instant, List<WriteStat> stats, String schemaJson)
      throws IOException {
    Map<String, List<GenericRecord>> byPartition = new LinkedHashMap<>();
    for (WriteStat stat : stats) {
      byPartition
          .computeIfAbsent(stat.partitionPath(), p -> new ArrayList<>())
          .add(writeStat(instant, stat));
    }
    write(out, byPartition, false, "UPSERT", schemaJson);
  }

  /**
   * The content of a completed compaction {@code <C>_<X>.commit} (hudi-table-services.md §2.4):
   * {@code compacted=true}, {@code operationType=COMPACT}, one write stat per base file.
   */
  static void writeCompaction(OutputStream out, List<CompactionWriteStat> stats, String schemaJson)
      throws IOException {
    Map<String, List<GenericRecord>> byPartition = new LinkedHashMap<>();
    for (CompactionWriteStat stat : stats) {
      byPartition
          .computeIfAbsent(stat.partitionPath(), p -> new ArrayList<>())
          .add(compactionWriteStat(stat));
    }
    write(out, byPartition, true, "COMPACT", schemaJson);
  }

  private static void write(
      OutputStream out,
      Map<String, List<GenericRecord>> statsByPartition,
      boolean compacted,
      String operationType,
      String schemaJson)
      throws IOException {
    GenericRecord metadata = new GenericData.Record(COMMIT_METADATA);
    metadata.put("partitionToWriteStats", statsByPartition);
    metadata.put("compacted", compacted);
    metadata.put("extraMetadata", Map.of("schema", schemaJson));
    metadata.put("version", null);
    metadata.put("operationType", operationType);
    TimelineAvro.write(metadata, out);
  }

  private static GenericRecord compactionWriteStat(CompactionWriteStat stat) {
    GenericRecord record = new GenericData.Record(WRITE_STAT);
    for (String counter : ZERO_COUNTERS) {
      record.put(counter, 0L);
    }
    record.put("fileId", stat.fileId());
    record.put("path", stat.relativePath());
    record.put("prevCommit", stat.previousBase() == null ? "null" : stat.previousBase().instant());
    record.put("numWrites", stat.numWrites());
    record.put("numDeletes", stat.numDeletes());
    record.put("numUpdateWrites", stat.numUpdateWrites());
    record.put("numInserts", stat.numInserts());
    record.put("totalWriteBytes", stat.sizeBytes());
    record.put("fileSizeInBytes", stat.sizeBytes());
    record.put("partitionPath", stat.partitionPath());
    record.put("totalLogRecords", stat.logRecords());
    record.put("totalLogBlocks", stat.logBlocks());
    record.put("totalLogFilesCompacted", stat.logFiles());
    record.put("totalLogSizeCompacted", stat.logBytes());
    record.put("totalUpdatedRecordsCompacted", stat.numUpdateWrites());
    record.put("prevBaseFile", stat.previousBase() == null ? null : stat.previousBase().fileName());
    GenericRecord runtime = new GenericData.Record(RUNTIME_STATS);
    runtime.put("totalScanTime", 0L);
    runtime.put("totalCreateTime", stat.millis());
    runtime.put("totalUpsertTime", 0L);
    record.put("runtimeStats", runtime);
    return record;
  }

  private static GenericRecord writeStat(String instant, WriteStat stat) {
    GenericRecord record = new GenericData.Record(WRITE_STAT);
    for (String counter : ZERO_COUNTERS) {
      record.put(counter, 0L);
    }
    record.put("fileId", stat.fileId());
    record.put("path", stat.relativePath());
    record.put("prevCommit", instant);
    record.put("numWrites", stat.numWrites());
    record.put("numDeletes", stat.numDeletes());
    record.put("numUpdateWrites", stat.numUpdates());
    record.put("totalWriteBytes", stat.sizeBytes());
    record.put("partitionPath", stat.partitionPath());
    record.put("numInserts", stat.numInserts());
    record.put("totalLogBlocks", (long) stat.numBlocks());
    record.put("fileSizeInBytes", stat.sizeBytes());
    record.put("logVersion", stat.logVersion());
    record.put("logOffset", 0L);
    record.put("baseFile", "");
    record.put("logFiles", List.of(stat.logFileName()));
    GenericRecord runtime = new GenericData.Record(RUNTIME_STATS);
    runtime.put("totalScanTime", 0L);
    runtime.put("totalCreateTime", 0L);
    runtime.put("totalUpsertTime", stat.writeMillis());
    record.put("runtimeStats", runtime);
    return record;
  }
}
