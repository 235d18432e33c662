package dev.mortar.writer.clean;

import dev.mortar.writer.table.TimelineAvro;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.avro.Schema;
import org.apache.avro.file.DataFileStream;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.fs.Path;

/**
 * The content of {@code <T>.clean.requested}: an Avro object container file holding one {@code
 * org.apache.hudi.avro.model.HoodieCleanerPlan} (spec "hudi-table-services" §4.2; the schema is a
 * resource copied from Hudi 1.1.1), with the values Hudi 1.1 writes:
 *
 * <pre>
 * HoodieCleanerPlan
 *   earliestInstantToRetain          {timestamp E, action deltacommit|commit, state COMPLETED}
 *   lastCompletedCommitTimestamp     requested time of the newest completed (delta) commit
 *   policy                           KEEP_LATEST_COMMITS
 *   filesToBeDeletedPerPartition     {} (the legacy field)
 *   version                          2
 *   filePathsToBeDeletedPerPartition {partition path: [HoodieCleanFileInfo {filePath: full URI,
 *                                    isBootstrapBaseFile: false}]}
 *   partitionsToBeDeleted            []
 *   extraMetadata                    {}
 * </pre>
 */
final class CleanPlanFile {
  static final String POLICY = "KEEP_LATEST_COMMITS";
  static final int VERSION = 2;
  private static final Schema PLAN =
      TimelineAvro.schema(CleanPlanFile.class, "HoodieCleanerPlan.avsc");
  private static final Schema INSTANT =
      PLAN.getField("earliestInstantToRetain").schema().getTypes().get(1);
  private static final Schema FILE_INFO =
      PLAN.getField("filePathsToBeDeletedPerPartition")
          .schema()
          .getTypes()
          .get(1)
          .getValueType()
          .getElementType();

  private CleanPlanFile() {}

  /** The plan's bytes; file paths are full URIs below {@code basePath} (qualified). */
  static byte[] write(CleanPlan plan, Path basePath) {
    GenericRecord earliest = new GenericData.Record(INSTANT);
    earliest.put("timestamp", plan.earliestInstantToRetain());
    earliest.put("action", plan.earliestInstantAction());
    earliest.put("state", "COMPLETED");
    Map<String, List<GenericRecord>> paths = new TreeMap<>();
    plan.filesByPartition()
        .forEach(
            (partition, names) -> {
              List<GenericRecord> infos = new ArrayList<>();
              for (String name : names) {
                GenericRecord info = new GenericData.Record(FILE_INFO);
                info.put("filePath", CleanPlan.file(basePath, partition, name).toString());
                info.put("isBootstrapBaseFile", false);
                infos.add(info);
              }
              paths.put(partition, infos);
            });
    GenericRecord record = new GenericData.Record(PLAN);
    record.put("earliestInstantToRetain", earliest);
    record.put("lastCompletedCommitTimestamp", plan.lastCompletedCommit());
    record.put("policy", POLICY);
    record.put("filesToBeDeletedPerPartition", Map.of());
    record.put("version", VERSION);
    record.put("filePathsToBeDeletedPerPartition", paths);
    record.put("partitionsToBeDeleted", List.of());
    record.put("extraMetadata", Map.of());
    return TimelineAvro.bytes(record);
  }

  /**
   * The plan of clean {@code instant}; reads plans written by Hudi as well as by Mortar (file paths
   * are cut to names; a version-1 plan's legacy field of names is read when the newer one is
   * absent).
   */
  static CleanPlan read(String instant, InputStream in) throws IOException {
    GenericRecord record;
    try (DataFileStream<GenericRecord> plans =
        new DataFileStream<>(in, new GenericDatumReader<>())) {
      record = plans.next();
    }
    TreeMap<String, List<String>> files = new TreeMap<>();
    Map<?, ?> paths = (Map<?, ?>) record.get("filePathsToBeDeletedPerPartition");
    Map<?, ?> legacy = (Map<?, ?>) record.get("filesToBeDeletedPerPartition");
    Map<?, ?> listed = paths != null && !paths.isEmpty() ? paths : legacy;
    if (listed != null) {
      listed.forEach(
          (partition, entries) -> {
            List<String> names = new ArrayList<>();
            for (Object entry : (List<?>) entries) {
              Object path = entry instanceof GenericRecord info ? info.get("filePath") : entry;
              names.add(new Path(path.toString()).getName());
            }
            files.put(partition.toString(), names);
          });
    }
    GenericRecord earliest = (GenericRecord) record.get("earliestInstantToRetain");
    return new CleanPlan(
        instant,
        earliest == null ? "" : earliest.get("timestamp").toString(),
        earliest == null ? "" : earliest.get("action").toString(),
        record.get("lastCompletedCommitTimestamp").toString(),
        files);
  }
}
