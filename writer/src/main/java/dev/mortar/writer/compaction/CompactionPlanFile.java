package dev.mortar.writer.compaction;

import dev.mortar.writer.table.TimelineAvro;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.file.DataFileStream;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;

/**
 * The content of {@code <C>.compaction.requested}: an Avro object container file, codec null,
 * holding one {@code org.apache.hudi.avro.model.HoodieCompactionPlan} (spec "hudi-table-services"
 * §2.2; the schema is carried as a resource, Hudi's classes are not on the production classpath).
 * Values are the ones Hudi 1.1 writes:
 *
 * <pre>
 * HoodieCompactionPlan      version 2, extraMetadata {}, strategy null,
 *                           preserveHoodieMetadata false, missingSchedulePartitions []
 *   operations[]            one HoodieCompactionOperation per file slice:
 *     fileId, partitionPath partitionPath relative, "" when unpartitioned
 *     baseInstantTime       the base file's instant, or the oldest log's delta commit
 *     dataFilePath          the base file's name, null for a slice of logs only
 *     deltaFilePaths        the log files' names (version-2 plans hold names), oldest first
 *     metrics               TOTAL_LOG_FILES, TOTAL_LOG_FILES_SIZE (bytes; Hudi's executor fails
 *                           without it), TOTAL_IO_READ_MB, TOTAL_IO_WRITE_MB, TOTAL_IO_MB
 *     bootstrapFilePath     null
 * </pre>
 */
final class CompactionPlanFile {
  static final int PLAN_VERSION = 2;
  private static final Schema PLAN =
      TimelineAvro.schema(CompactionPlanFile.class, "HoodieCompactionPlan.avsc");
  private static final Schema OPERATION =
      PLAN.getField("operations").schema().getTypes().get(1).getElementType();
  private static final double MB = 1024.0 * 1024.0;

  private CompactionPlanFile() {}

  static byte[] write(List<CompactionOperation> operations) {
    GenericRecord plan = new GenericData.Record(PLAN);
    List<GenericRecord> records = new ArrayList<>();
    for (CompactionOperation operation : operations) {
      records.add(operation(operation));
    }
    plan.put("operations", records);
    plan.put("extraMetadata", Map.of());
    plan.put("version", PLAN_VERSION);
    plan.put("strategy", null);
    plan.put("preserveHoodieMetadata", false);
    plan.put("missingSchedulePartitions", List.of());
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try {
      TimelineAvro.write(plan, bytes);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot encode a compaction plan", e);
    }
    return bytes.toByteArray();
  }

  /**
   * The operations of plan {@code instant}, as tasks; reads plans written by Hudi as well as by
   * Mortar (version-1 plans' full paths are cut to file names).
   */
  static List<CompactionTask> tasks(String instant, InputStream in) throws IOException {
    List<GenericRecord> operations = new ArrayList<>();
    try (DataFileStream<GenericRecord> plans =
        new DataFileStream<>(in, new GenericDatumReader<>())) {
      for (GenericRecord plan : plans) {
        Object planned = plan.get("operations");
        if (planned != null) {
          for (Object operation : (List<?>) planned) {
            operations.add((GenericRecord) operation);
          }
        }
      }
    }
    List<CompactionTask> tasks = new ArrayList<>(operations.size());
    for (GenericRecord operation : operations) {
      Object partition = operation.get("partitionPath");
      Object dataFile = operation.get("dataFilePath");
      List<String> logs = new ArrayList<>();
      Object deltaFiles = operation.get("deltaFilePaths");
      if (deltaFiles != null) {
        for (Object log : (List<?>) deltaFiles) {
          logs.add(fileName(log));
        }
      }
      tasks.add(
          new CompactionTask(
              instant,
              operations.size(),
              new FileGroupId(
                  partition == null ? "" : partition.toString(),
                  operation.get("fileId").toString()),
              operation.get("baseInstantTime").toString(),
              dataFile == null ? null : fileName(dataFile),
              List.copyOf(logs),
              false));
    }
    return tasks;
  }

  private static String fileName(Object path) {
    String text = path.toString();
    return text.substring(text.lastIndexOf('/') + 1);
  }

  private static GenericRecord operation(CompactionOperation operation) {
    GenericRecord record = new GenericData.Record(OPERATION);
    List<String> logNames = new ArrayList<>();
    for (LogFile log : operation.logFiles()) {
      logNames.add(log.name());
    }
    long logBytes = operation.logBytes();
    long baseBytes = operation.baseFile() == null ? 0 : operation.baseFile().sizeBytes();
    double readMb = (logBytes + baseBytes) / MB;
    double writeMb = (operation.baseFile() == null ? logBytes : baseBytes) / MB;
    Map<String, Double> metrics = new LinkedHashMap<>();
    metrics.put("TOTAL_LOG_FILES", (double) logNames.size());
    metrics.put("TOTAL_LOG_FILES_SIZE", (double) logBytes);
    metrics.put("TOTAL_IO_READ_MB", readMb);
    metrics.put("TOTAL_IO_WRITE_MB", writeMb);
    metrics.put("TOTAL_IO_MB", readMb + writeMb);
    record.put("baseInstantTime", operation.baseInstant());
    record.put("deltaFilePaths", logNames);
    record.put("dataFilePath", operation.baseFile() == null ? null : operation.baseFile().name());
    record.put("fileId", operation.fileGroup().fileId());
    record.put("partitionPath", operation.fileGroup().partitionPath());
    record.put("metrics", metrics);
    record.put("bootstrapFilePath", null);
    return record;
  }
}
