package dev.mortar.writer.clean;

import dev.mortar.writer.table.TimelineAvro;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/**
 * The content of {@code <T>_<X>.clean}: an Avro object container file holding one {@code
 * org.apache.hudi.avro.model.HoodieCleanMetadata} (spec "hudi-table-services" §4.3; the schema is a
 * resource copied from Hudi 1.1.1), with the values Hudi 1.1 writes:
 *
 * <pre>
 * HoodieCleanMetadata
 *   startCleanTime, timeTakenInMillis, totalFilesDeleted
 *   earliestCommitToRetain, lastCompletedCommitTimestamp   as in the plan
 *   partitionMetadata    {partition path: HoodieCleanPartitionMetadata {partitionPath,
 *                        policy KEEP_LATEST_COMMITS, deletePathPatterns: the planned file names,
 *                        successDeleteFiles: the same names, failedDeleteFiles [],
 *                        isPartitionDeleted false}}
 *   version 2, bootstrapPartitionMetadata {}, extraMetadata {}
 * </pre>
 *
 * A clean completes only once every planned file is gone, so every planned name is a success; one
 * already gone (deleted by an earlier attempt of the same clean) counts too, where Hudi would list
 * it as failed.
 */
final class CleanMetadataFile {
  private static final Schema METADATA =
      TimelineAvro.schema(CleanMetadataFile.class, "HoodieCleanMetadata.avsc");
  private static final Schema PARTITION =
      METADATA.getField("partitionMetadata").schema().getValueType();

  private CleanMetadataFile() {}

  static byte[] write(CleanPlan plan, long millis) {
    Map<String, GenericRecord> partitions = new TreeMap<>();
    plan.filesByPartition()
        .forEach(
            (partition, names) -> {
              GenericRecord metadata = new GenericData.Record(PARTITION);
              metadata.put("partitionPath", partition);
              metadata.put("policy", CleanPlanFile.POLICY);
              metadata.put("deletePathPatterns", names);
              metadata.put("successDeleteFiles", names);
              metadata.put("failedDeleteFiles", List.of());
              metadata.put("isPartitionDeleted", false);
              partitions.put(partition, metadata);
            });
    GenericRecord record = new GenericData.Record(METADATA);
    record.put("startCleanTime", plan.instant());
    record.put("timeTakenInMillis", millis);
    record.put("totalFilesDeleted", plan.fileCount());
    record.put("earliestCommitToRetain", plan.earliestInstantToRetain());
    record.put("lastCompletedCommitTimestamp", plan.lastCompletedCommit());
    record.put("partitionMetadata", partitions);
    record.put("version", CleanPlanFile.VERSION);
    record.put("bootstrapPartitionMetadata", Map.of());
    record.put("extraMetadata", Map.of());
    return TimelineAvro.bytes(record);
  }
}
