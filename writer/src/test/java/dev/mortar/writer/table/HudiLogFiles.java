package dev.mortar.writer.table;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.conf.Configuration;
import org.apache.hudi.avro.HoodieAvroUtils;
import org.apache.hudi.common.model.DeleteRecord;
import org.apache.hudi.common.model.HoodieAvroIndexedRecord;
import org.apache.hudi.common.model.HoodieKey;
import org.apache.hudi.common.model.HoodieRecord;
import org.apache.hudi.common.table.HoodieTableVersion;
import org.apache.hudi.common.table.log.HoodieLogFormat;
import org.apache.hudi.common.table.log.block.HoodieAvroDataBlock;
import org.apache.hudi.common.table.log.block.HoodieDeleteBlock;
import org.apache.hudi.common.table.log.block.HoodieLogBlock.HeaderMetadataType;
import org.apache.hudi.common.util.collection.Pair;
import org.apache.hudi.hadoop.fs.HadoopFSUtils;
import org.apache.hudi.storage.HoodieStorage;
import org.apache.hudi.storage.HoodieStorageUtils;
import org.apache.hudi.storage.StoragePath;

/**
 * Writes one log file of a file group with Hudi's own log writer (a data block, then a delete
 * block), standing in for Mortar's log writer so the table layer can be tested alone.
 */
final class HudiLogFiles {
  private final String basePath;
  private final Schema schema;
  private final Schema schemaWithMeta;
  private final HoodieStorage storage;

  HudiLogFiles(String basePath, Schema schema) {
    this.basePath = basePath;
    this.schema = schema;
    this.schemaWithMeta = HoodieAvroUtils.addMetadataFields(schema);
    this.storage =
        HoodieStorageUtils.getStorage(basePath, HadoopFSUtils.getStorageConf(new Configuration()));
  }

  /** A row of the table schema (without meta columns) with the given column values. */
  GenericRecord row(Map<String, Object> values) {
    GenericRecord row = new GenericData.Record(schema);
    values.forEach(row::put);
    return row;
  }

  WriteStat write(
      String partitionPath,
      String fileId,
      String instant,
      List<GenericRecord> rows,
      Map<String, Long> deletesWithOrdering,
      String recordKeyField)
      throws Exception {
    Map<HeaderMetadataType, String> header = new HashMap<>();
    header.put(HeaderMetadataType.INSTANT_TIME, instant);
    header.put(HeaderMetadataType.SCHEMA, schemaWithMeta.toString());
    HoodieLogFormat.Writer writer =
        HoodieLogFormat.newWriterBuilder()
            .onParentPath(
                partitionPath.isEmpty()
                    ? new StoragePath(basePath)
                    : new StoragePath(basePath, partitionPath))
            .withFileId(fileId)
            .withInstantTime(instant)
            .withFileExtension(".log")
            .withLogWriteToken("0-1-0")
            .withStorage(storage)
            .withTableVersion(HoodieTableVersion.NINE)
            .build();
    int blocks = 0;
    long seq = 0;
    if (!rows.isEmpty()) {
      List<HoodieRecord> records = new ArrayList<>();
      for (GenericRecord row : rows) {
        String key = row.get(recordKeyField).toString();
        GenericRecord withMeta = HoodieAvroUtils.rewriteRecord(row, schemaWithMeta);
        withMeta.put(HoodieRecord.COMMIT_TIME_METADATA_FIELD, instant);
        withMeta.put(HoodieRecord.COMMIT_SEQNO_METADATA_FIELD, instant + "_0_" + seq++);
        withMeta.put(HoodieRecord.RECORD_KEY_METADATA_FIELD, key);
        withMeta.put(HoodieRecord.PARTITION_PATH_METADATA_FIELD, partitionPath);
        withMeta.put(HoodieRecord.FILENAME_METADATA_FIELD, fileId);
        records.add(new HoodieAvroIndexedRecord(new HoodieKey(key, partitionPath), withMeta));
      }
      writer.appendBlock(
          new HoodieAvroDataBlock(records, header, HoodieRecord.RECORD_KEY_METADATA_FIELD));
      blocks++;
    }
    if (!deletesWithOrdering.isEmpty()) {
      List<Pair<DeleteRecord, Long>> deletes = new ArrayList<>();
      deletesWithOrdering.forEach(
          (key, ordering) ->
              deletes.add(Pair.of(DeleteRecord.create(key, partitionPath, ordering), -1L)));
      Map<HeaderMetadataType, String> deleteHeader = new HashMap<>();
      deleteHeader.put(HeaderMetadataType.INSTANT_TIME, instant);
      writer.appendBlock(new HoodieDeleteBlock(deletes, deleteHeader));
      blocks++;
    }
    String name = writer.getLogFile().getFileName();
    int version = writer.getLogFile().getLogVersion();
    writer.close();
    long size = storage.getPathInfo(writer.getLogFile().getPath()).getLength();
    return new WriteStat(
        partitionPath,
        fileId,
        name,
        version,
        rows.size(),
        0,
        deletesWithOrdering.size(),
        blocks,
        size,
        1);
  }
}
