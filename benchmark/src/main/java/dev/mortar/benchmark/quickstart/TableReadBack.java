package dev.mortar.benchmark.quickstart;

import java.util.HashSet;
import java.util.Set;
import org.apache.avro.Schema;
import org.apache.avro.generic.IndexedRecord;
import org.apache.hadoop.conf.Configuration;
import org.apache.hudi.avro.HoodieAvroReaderContext;
import org.apache.hudi.common.config.HoodieMetadataConfig;
import org.apache.hudi.common.config.TypedProperties;
import org.apache.hudi.common.engine.HoodieLocalEngineContext;
import org.apache.hudi.common.fs.FSUtils;
import org.apache.hudi.common.model.FileSlice;
import org.apache.hudi.common.table.HoodieTableMetaClient;
import org.apache.hudi.common.table.TableSchemaResolver;
import org.apache.hudi.common.table.read.HoodieFileGroupReader;
import org.apache.hudi.common.table.timeline.HoodieInstant;
import org.apache.hudi.common.util.Option;
import org.apache.hudi.common.util.collection.ClosableIterator;
import org.apache.hudi.hadoop.fs.HadoopFSUtils;
import org.apache.hudi.storage.StorageConfiguration;

/**
 * Reads a Mortar table back with Hudi 1.1's own reader ({@code HoodieFileGroupReader} over the
 * latest file slices, no metadata table) and counts its rows without holding them: only the record
 * keys are kept, to prove that no key is in two file groups. Merging stays in memory (Hudi's
 * default merge budget is far above one quick-start file group), so Hudi's spill path, which needs
 * Hudi's Kryo rather than Flink's, is never taken.
 */
final class TableReadBack {
  private TableReadBack() {}

  /** The number of rows Hudi reads from the table at {@code basePath} (= its distinct keys). */
  static long countRows(String basePath) throws Exception {
    StorageConfiguration<Configuration> conf = HadoopFSUtils.getStorageConf(new Configuration());
    HoodieTableMetaClient metaClient =
        HoodieTableMetaClient.builder().setConf(conf).setBasePath(basePath).build();
    Option<HoodieInstant> latest =
        metaClient
            .getActiveTimeline()
            .getDeltaCommitTimeline()
            .filterCompletedInstants()
            .lastInstant();
    if (latest.isEmpty()) {
      return 0;
    }
    Schema schema = new TableSchemaResolver(metaClient).getTableAvroSchema(true);
    HoodieLocalEngineContext engine = new HoodieLocalEngineContext(conf);
    var view =
        org.apache.hudi.common.table.view.FileSystemViewManager.createInMemoryFileSystemView(
            engine, metaClient, HoodieMetadataConfig.newBuilder().enable(false).build());
    Set<String> keys = new HashSet<>();
    int keyField = schema.getField("_hoodie_record_key").pos();
    for (String partition : FSUtils.getAllPartitionPaths(engine, metaClient, false)) {
      for (FileSlice slice : view.getLatestFileSlices(partition).toList()) {
        HoodieFileGroupReader<IndexedRecord> reader =
            HoodieFileGroupReader.<IndexedRecord>newBuilder()
                .withReaderContext(
                    new HoodieAvroReaderContext(
                        conf, metaClient.getTableConfig(), Option.empty(), Option.empty()))
                .withHoodieTableMetaClient(metaClient)
                .withLatestCommitTime(latest.get().requestedTime())
                .withFileSlice(slice)
                .withDataSchema(schema)
                .withRequestedSchema(schema)
                .withProps(new TypedProperties())
                .build();
        try (ClosableIterator<IndexedRecord> records = reader.getClosableIterator()) {
          while (records.hasNext()) {
            String key = records.next().get(keyField).toString();
            if (!keys.add(key)) {
              throw new IllegalStateException(
                  "record key "
                      + key
                      + " is in two file groups (found again in "
                      + slice.getFileId()
                      + ")");
            }
          }
        }
      }
    }
    return keys.size();
  }
}
