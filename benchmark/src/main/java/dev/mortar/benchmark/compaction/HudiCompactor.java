package dev.mortar.benchmark.compaction;

import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import org.apache.hadoop.conf.Configuration;
import org.apache.hudi.client.HoodieJavaWriteClient;
import org.apache.hudi.client.common.HoodieJavaEngineContext;
import org.apache.hudi.common.config.HoodieMetadataConfig;
import org.apache.hudi.common.table.HoodieTableMetaClient;
import org.apache.hudi.common.table.TableSchemaResolver;
import org.apache.hudi.config.HoodieArchivalConfig;
import org.apache.hudi.config.HoodieCleanConfig;
import org.apache.hudi.config.HoodieIndexConfig;
import org.apache.hudi.config.HoodieWriteConfig;
import org.apache.hudi.hadoop.fs.HadoopFSUtils;
import org.apache.hudi.index.HoodieIndex;
import org.apache.hudi.storage.StorageConfiguration;

/**
 * Hudi's own Java client (hudi-java-client) executing each pending plan with {@code
 * compact(instant)}: in-memory index, no metadata table, no timeline server, no automatic clean or
 * archival, and the Parquet list layout Hudi's Java engine needs (as Mortar's tests run it).
 *
 * <p>The Java engine runs a plan's operations as a parallel stream; the client runs here inside a
 * one-thread {@link ForkJoinPool}, whose parallel streams stay on that pool, so the compaction is
 * single-threaded like Mortar's one compaction task.
 */
final class HudiCompactor implements Compactor {
  private static final String THREAD_PREFIX = "hudi-compactor-";

  @Override
  public String name() {
    return "hudi";
  }

  @Override
  public String compactionThreadPrefix() {
    return THREAD_PREFIX;
  }

  @Override
  public void compactPending(Path table) throws Exception {
    List<String> pending = PendingPlans.of(table).instants();
    ForkJoinPool pool =
        new ForkJoinPool(
            1,
            forkJoinPool -> {
              ForkJoinWorkerThread thread =
                  ForkJoinPool.defaultForkJoinWorkerThreadFactory.newThread(forkJoinPool);
              thread.setName(THREAD_PREFIX + thread.getPoolIndex());
              return thread;
            },
            null,
            false);
    try {
      pool.submit(
              () -> {
                try (HoodieJavaWriteClient<?> client = client(table.toUri().toString())) {
                  for (String instant : pending) {
                    client.compact(instant, true);
                  }
                }
                return null;
              })
          .get();
    } finally {
      pool.shutdown();
    }
  }

  private static HoodieJavaWriteClient<?> client(String path) throws Exception {
    StorageConfiguration<Configuration> storage = storageConf();
    HoodieTableMetaClient metaClient =
        HoodieTableMetaClient.builder().setConf(storage).setBasePath(path).build();
    String schema = new TableSchemaResolver(metaClient).getTableAvroSchema(false).toString();
    Properties props = new Properties();
    props.setProperty("hoodie.datasource.write.recordkey.field", WorkloadTable.RECORD_KEY);
    HoodieWriteConfig config =
        HoodieWriteConfig.newBuilder()
            .withPath(path)
            .forTable(metaClient.getTableConfig().getTableName())
            .withSchema(schema)
            .withProps(props)
            .withIndexConfig(
                HoodieIndexConfig.newBuilder()
                    .withIndexType(HoodieIndex.IndexType.INMEMORY)
                    .build())
            .withMetadataConfig(HoodieMetadataConfig.newBuilder().enable(false).build())
            .withEmbeddedTimelineServerEnabled(false)
            .withCleanConfig(HoodieCleanConfig.newBuilder().withAutoClean(false).build())
            .withArchivalConfig(HoodieArchivalConfig.newBuilder().withAutoArchive(false).build())
            .build();
    return new HoodieJavaWriteClient<>(new HoodieJavaEngineContext(storage), config);
  }

  private static StorageConfiguration<Configuration> storageConf() {
    Configuration conf = new Configuration();
    conf.set("parquet.avro.write-old-list-structure", "false");
    return HadoopFSUtils.getStorageConf(conf);
  }
}
