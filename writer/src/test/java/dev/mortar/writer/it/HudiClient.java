package dev.mortar.writer.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hudi.client.HoodieJavaWriteClient;
import org.apache.hudi.client.common.HoodieJavaEngineContext;
import org.apache.hudi.common.config.HoodieMetadataConfig;
import org.apache.hudi.common.model.HoodieCleaningPolicy;
import org.apache.hudi.common.model.HoodieWriteStat;
import org.apache.hudi.common.model.TableServiceType;
import org.apache.hudi.common.table.HoodieTableMetaClient;
import org.apache.hudi.common.table.TableSchemaResolver;
import org.apache.hudi.common.table.timeline.HoodieInstant;
import org.apache.hudi.common.table.timeline.HoodieTimeline;
import org.apache.hudi.common.util.Option;
import org.apache.hudi.config.HoodieArchivalConfig;
import org.apache.hudi.config.HoodieCleanConfig;
import org.apache.hudi.config.HoodieCompactionConfig;
import org.apache.hudi.config.HoodieIndexConfig;
import org.apache.hudi.config.HoodieWriteConfig;
import org.apache.hudi.hadoop.fs.HadoopFSUtils;
import org.apache.hudi.index.HoodieIndex;
import org.apache.hudi.storage.StorageConfiguration;

/**
 * Hudi's own Java client (hudi-java-client 1.1.1) on a table of the test {@link Changelog} (key
 * {@code id}, partition {@code dt}): in-memory index, no metadata table, no timeline server, no
 * automatic clean or archival (cleans run when called, by the policy the call names), and the
 * Parquet setting Hudi's Java engine needs for arrays with null elements
 * (shared/spec/hudi-table-services.md §6).
 */
final class HudiClient {
  private HudiClient() {}

  /** Runs every pending compaction; afterwards none is pending. */
  static void compactPending(String path) throws Exception {
    List<String> pending = pendingCompactions(path);
    try (HoodieJavaWriteClient<?> client = client(path, 1, latestVersionClean())) {
      for (String instant : pending) {
        client.compact(instant, true);
      }
    }
    assertThat(pendingCompactions(path))
        .as("pending compactions after Hudi ran %s", pending)
        .isEmpty();
  }

  /** Schedules a compaction of every slice with logs and runs it; returns its instant, if any. */
  static Option<String> scheduleAndCompact(String path) throws Exception {
    try (HoodieJavaWriteClient<?> client = client(path, 1, latestVersionClean())) {
      Option<String> instant = client.scheduleCompaction(Option.empty());
      if (instant.isPresent()) {
        client.compact(instant.get(), true);
      }
      return instant;
    }
  }

  /** Cleans, keeping the latest file version of each file group; returns the files deleted. */
  static int cleanToLatestVersion(String path) throws Exception {
    return clean(path, latestVersionClean());
  }

  /**
   * Cleans by Hudi's default policy, KEEP_LATEST_COMMITS with {@code commits} retained (an
   * incremental clean after an earlier one); returns the files deleted.
   */
  static int cleanKeepingCommits(String path, int commits) throws Exception {
    return clean(path, latestCommitsClean(commits));
  }

  /**
   * Writes the plan of a KEEP_LATEST_COMMITS clean ({@code T.clean.requested}) without running it;
   * returns its instant, if it would delete anything.
   */
  static Option<String> scheduleCleanKeepingCommits(String path, int commits) throws Exception {
    try (HoodieJavaWriteClient<?> client = client(path, 1, latestCommitsClean(commits))) {
      return client.scheduleTableService(Option.empty(), TableServiceType.CLEAN);
    }
  }

  private static int clean(String path, HoodieCleanConfig cleanConfig) throws Exception {
    try (HoodieJavaWriteClient<?> client = client(path, 1, cleanConfig)) {
      var metadata = client.clean();
      return metadata == null ? 0 : metadata.getTotalFilesDeleted();
    }
  }

  private static HoodieCleanConfig latestVersionClean() {
    return HoodieCleanConfig.newBuilder()
        .withAutoClean(false)
        .withCleanerPolicy(HoodieCleaningPolicy.KEEP_LATEST_FILE_VERSIONS)
        .retainFileVersions(1)
        .build();
  }

  private static HoodieCleanConfig latestCommitsClean(int commits) {
    return HoodieCleanConfig.newBuilder()
        .withAutoClean(false)
        .withCleanerPolicy(HoodieCleaningPolicy.KEEP_LATEST_COMMITS)
        .retainCommits(commits)
        .build();
  }

  /**
   * Runs Hudi's archiver once, keeping {@code minCommits} to {@code maxCommits} completed commits
   * in the active timeline (and a cleaner that retains fewer, as Hudi requires).
   */
  static void archive(String path, int minCommits, int maxCommits) throws Exception {
    HoodieArchivalConfig archival =
        HoodieArchivalConfig.newBuilder()
            .withAutoArchive(false)
            .archiveCommitsWith(minCommits, maxCommits)
            .build();
    try (HoodieJavaWriteClient<?> client =
        client(path, 1, latestCommitsClean(minCommits - 1), archival)) {
      client.archive();
    }
  }

  static List<String> pendingCompactions(String path) {
    List<String> pending = new ArrayList<>();
    metaClient(path)
        .getActiveTimeline()
        .filterPendingCompactionTimeline()
        .getInstants()
        .forEach(i -> pending.add(i.requestedTime()));
    return pending;
  }

  /** The paths of the files each instant of {@code completed} wrote, by its requested time. */
  static Map<String, List<String>> writtenPaths(HoodieTimeline completed) throws IOException {
    Map<String, List<String>> written = new TreeMap<>();
    for (HoodieInstant instant : completed.getInstants()) {
      written.put(
          instant.requestedTime(),
          completed.readCommitMetadata(instant).getWriteStats().stream()
              .map(HoodieWriteStat::getPath)
              .toList());
    }
    return written;
  }

  static HoodieTableMetaClient metaClient(String path) {
    return HoodieTableMetaClient.builder().setConf(storageConf()).setBasePath(path).build();
  }

  private static HoodieJavaWriteClient<?> client(
      String path, int deltaCommitsPerCompaction, HoodieCleanConfig cleanConfig) throws Exception {
    return client(
        path,
        deltaCommitsPerCompaction,
        cleanConfig,
        HoodieArchivalConfig.newBuilder().withAutoArchive(false).build());
  }

  private static HoodieJavaWriteClient<?> client(
      String path,
      int deltaCommitsPerCompaction,
      HoodieCleanConfig cleanConfig,
      HoodieArchivalConfig archival)
      throws Exception {
    HoodieTableMetaClient metaClient = metaClient(path);
    String schema = new TableSchemaResolver(metaClient).getTableAvroSchema(false).toString();
    Properties props = new Properties();
    props.setProperty("hoodie.datasource.write.recordkey.field", "id");
    props.setProperty("hoodie.datasource.write.partitionpath.field", "dt");
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
            .withCompactionConfig(
                HoodieCompactionConfig.newBuilder()
                    .withMaxNumDeltaCommitsBeforeCompaction(deltaCommitsPerCompaction)
                    .build())
            .withCleanConfig(cleanConfig)
            .withArchivalConfig(archival)
            .build();
    return new HoodieJavaWriteClient<>(new HoodieJavaEngineContext(storageConf()), config);
  }

  private static StorageConfiguration<Configuration> storageConf() {
    Configuration conf = new Configuration();
    conf.set("parquet.avro.write-old-list-structure", "false");
    return HadoopFSUtils.getStorageConf(conf);
  }
}
