package dev.mortar.testing;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.generic.IndexedRecord;
import org.apache.hadoop.conf.Configuration;
import org.apache.hudi.avro.HoodieAvroReaderContext;
import org.apache.hudi.common.config.HoodieMemoryConfig;
import org.apache.hudi.common.config.HoodieMetadataConfig;
import org.apache.hudi.common.config.TypedProperties;
import org.apache.hudi.common.engine.HoodieLocalEngineContext;
import org.apache.hudi.common.fs.FSUtils;
import org.apache.hudi.common.model.FileSlice;
import org.apache.hudi.common.table.HoodieTableMetaClient;
import org.apache.hudi.common.table.TableSchemaResolver;
import org.apache.hudi.common.table.read.HoodieFileGroupReader;
import org.apache.hudi.common.table.timeline.HoodieTimeline;
import org.apache.hudi.common.table.view.FileSystemViewManager;
import org.apache.hudi.common.table.view.HoodieTableFileSystemView;
import org.apache.hudi.common.util.Option;
import org.apache.hudi.common.util.collection.ClosableIterator;
import org.apache.hudi.hadoop.fs.HadoopFSUtils;
import org.apache.hudi.storage.StorageConfiguration;

/**
 * The judge of every writer test, and the quick start's read-back: what Hudi 1.1.1's own reader
 * ({@code HoodieFileGroupReader} over the file slices a snapshot query reads, no metadata table,
 * §14 b.3) sees in a table, also while the writer runs and a compaction is pending.
 *
 * <p>Every read fails if one record key appears in two file groups, so a test also catches
 * duplicates across buckets or partitions. Merging stays in memory, within a budget of three
 * quarters of the heap ({@link #MERGE_BUDGET_BYTES}; Hudi's default of 1 GB is below a quick start
 * of 10M rows' file group): Hudi's spill path needs Hudi's Kryo, and on a Flink classpath Flink's
 * older Kryo wins.
 */
public final class HudiTableOracle {
  /** What Hudi's reader may hold of one file slice in memory before it would spill. */
  static final long MERGE_BUDGET_BYTES = Runtime.getRuntime().maxMemory() / 4 * 3;

  private HudiTableOracle() {}

  /** Receives the rows Hudi's reader returns; a row is only valid during the call. */
  @FunctionalInterface
  public interface RowVisitor {
    void visit(String recordKey, IndexedRecord row, FileSlice slice);
  }

  private static TypedProperties mergeInMemory() {
    TypedProperties props = new TypedProperties();
    props.setProperty(
        HoodieMemoryConfig.MAX_MEMORY_FOR_MERGE.key(), Long.toString(MERGE_BUDGET_BYTES));
    return props;
  }

  /** The latest row per record key over all partitions, with Hudi's meta columns. */
  public static Map<String, GenericRecord> latestPerKey(String basePath) {
    return latestPerKey(basePath, new Configuration());
  }

  public static Map<String, GenericRecord> latestPerKey(String basePath, Configuration hadoopConf) {
    Map<String, GenericRecord> rows = new HashMap<>();
    forEachRow(basePath, hadoopConf, (key, row, slice) -> rows.put(key, copy(row)));
    return rows;
  }

  /**
   * Hands every row Hudi reads from the table to {@code visitor}, without holding the rows (only
   * their keys, to find a key in two file groups), and returns how many there were.
   */
  public static long forEachRow(String basePath, Configuration hadoopConf, RowVisitor visitor) {
    StorageConfiguration<Configuration> conf = HadoopFSUtils.getStorageConf(hadoopConf);
    HoodieTableMetaClient metaClient = metaClient(basePath, conf);
    if (completedTimeline(metaClient).empty()) {
      return 0;
    }
    Map<String, String> fileGroupOfKey = new HashMap<>();
    try {
      Schema schema = new TableSchemaResolver(metaClient).getTableAvroSchema(true);
      HoodieLocalEngineContext engine = new HoodieLocalEngineContext(conf);
      SnapshotView snapshot = SnapshotView.of(engine, metaClient);
      SliceReader reader =
          new SliceReader(
              metaClient,
              conf,
              schema,
              snapshot.queryInstant(),
              RecordKeyReader.of(schema, metaClient));
      for (String partition : FSUtils.getAllPartitionPaths(engine, metaClient, false)) {
        for (FileSlice slice : snapshot.latestSlices(partition)) {
          try {
            reader.read(slice, fileGroupOfKey, visitor);
          } catch (LinkageError spilled) {
            throw new IllegalStateException(
                "Hudi's reader needs more than "
                    + MERGE_BUDGET_BYTES / (1 << 20)
                    + " MB (three quarters of the heap) to merge file group "
                    + slice.getPartitionPath()
                    + "/"
                    + slice.getFileId()
                    + ", and its spill to disk needs Hudi's Kryo, which Flink's hides on this"
                    + " classpath: give the JVM more heap, or spread the table over more buckets",
                spilled);
          }
        }
      }
    } catch (Exception e) {
      throw new IllegalStateException("Hudi's reader failed on " + basePath, e);
    }
    return fileGroupOfKey.size();
  }

  /**
   * The file slices a snapshot query reads, built the way Hudi's engine file index builds them
   * (spec hudi-table-services.md §3.4): a view of the completed and pending-compaction instants,
   * queried at that timeline's last instant, so a file group under a pending compaction reads as
   * its slice before the compaction merged with the logs written since (the pending base file left
   * out).
   */
  private record SnapshotView(HoodieTableFileSystemView view, String queryInstant) {
    static SnapshotView of(HoodieLocalEngineContext engine, HoodieTableMetaClient metaClient) {
      HoodieTimeline visible =
          metaClient.getCommitsAndCompactionTimeline().filterCompletedAndCompactionInstants();
      return new SnapshotView(
          FileSystemViewManager.createInMemoryFileSystemViewWithTimeline(
              engine, metaClient, HoodieMetadataConfig.newBuilder().enable(false).build(), visible),
          visible.lastInstant().get().requestedTime());
    }

    List<FileSlice> latestSlices(String partition) {
      return view.getLatestMergedFileSlicesBeforeOrOn(partition, queryInstant).toList();
    }
  }

  /**
   * The file group ids a snapshot query reads per partition: with the bucket index, exactly one per
   * bucket that was ever written in that partition.
   */
  public static Map<String, Set<String>> fileGroups(String basePath) {
    StorageConfiguration<Configuration> conf = HadoopFSUtils.getStorageConf(new Configuration());
    HoodieTableMetaClient metaClient = metaClient(basePath, conf);
    if (completedTimeline(metaClient).empty()) {
      return Map.of();
    }
    HoodieLocalEngineContext engine = new HoodieLocalEngineContext(conf);
    SnapshotView snapshot = SnapshotView.of(engine, metaClient);
    Map<String, Set<String>> groups = new TreeMap<>();
    for (String partition : FSUtils.getAllPartitionPaths(engine, metaClient, false)) {
      Set<String> ids = new TreeSet<>();
      snapshot.latestSlices(partition).forEach(slice -> ids.add(slice.getFileId()));
      if (!ids.isEmpty()) {
        groups.put(partition, ids);
      }
    }
    return groups;
  }

  /** Requested times of completed deltacommits, archived ones included, oldest first. */
  public static List<String> completedInstants(String basePath) {
    HoodieTableMetaClient metaClient =
        metaClient(basePath, HadoopFSUtils.getStorageConf(new Configuration()));
    List<String> times =
        requestedTimes(
            metaClient.getArchivedTimeline().getDeltaCommitTimeline().filterCompletedInstants());
    times.addAll(requestedTimes(completedTimeline(metaClient)));
    return times;
  }

  /** Requested times of started but not completed deltacommits, oldest first. */
  public static List<String> pendingInstants(String basePath) {
    HoodieTableMetaClient metaClient =
        metaClient(basePath, HadoopFSUtils.getStorageConf(new Configuration()));
    return requestedTimes(
        metaClient.getActiveTimeline().getDeltaCommitTimeline().filterInflightsAndRequested());
  }

  /** Reads file slices of one table at one instant with Hudi's file group reader. */
  private record SliceReader(
      HoodieTableMetaClient metaClient,
      StorageConfiguration<Configuration> conf,
      Schema schema,
      String latestInstant,
      RecordKeyReader keys) {

    void read(FileSlice slice, Map<String, String> fileGroupOfKey, RowVisitor visitor)
        throws IOException {
      HoodieFileGroupReader<IndexedRecord> reader =
          HoodieFileGroupReader.<IndexedRecord>newBuilder()
              .withReaderContext(
                  new HoodieAvroReaderContext(
                      conf, metaClient.getTableConfig(), Option.empty(), Option.empty()))
              .withHoodieTableMetaClient(metaClient)
              .withLatestCommitTime(latestInstant)
              .withFileSlice(slice)
              .withDataSchema(schema)
              .withRequestedSchema(schema)
              .withProps(mergeInMemory())
              .build();
      String fileGroup = slice.getPartitionPath() + "/" + slice.getFileId();
      try (ClosableIterator<IndexedRecord> records = reader.getClosableIterator()) {
        while (records.hasNext()) {
          IndexedRecord row = records.next();
          String key = keys.read(row);
          String previous = fileGroupOfKey.put(key, fileGroup);
          if (previous != null) {
            throw new IllegalStateException(
                "record key " + key + " is in two file groups: " + previous + " and " + fileGroup);
          }
          visitor.visit(key, row, slice);
        }
      }
    }
  }

  private static GenericRecord copy(IndexedRecord record) {
    Schema schema = record.getSchema();
    GenericData.Record copy = new GenericData.Record(schema);
    for (Schema.Field field : schema.getFields()) {
      Object value = record.get(field.pos());
      copy.put(field.pos(), value instanceof CharSequence ? value.toString() : value);
    }
    return copy;
  }

  private static HoodieTableMetaClient metaClient(
      String basePath, StorageConfiguration<Configuration> conf) {
    return HoodieTableMetaClient.builder().setConf(conf).setBasePath(basePath).build();
  }

  private static HoodieTimeline completedTimeline(HoodieTableMetaClient metaClient) {
    return metaClient.getActiveTimeline().getDeltaCommitTimeline().filterCompletedInstants();
  }

  private static List<String> requestedTimes(HoodieTimeline timeline) {
    List<String> times = new ArrayList<>();
    timeline.getInstants().forEach(instant -> times.add(instant.requestedTime()));
    return times;
  }

  /**
   * Reads a record's key: its {@code _hoodie_record_key}, or for a table without meta fields the
   * key Hudi's key generators build from the record key fields ({@code value}, or {@code
   * f1:v1,f2:v2} for several fields). Field positions are resolved once per table.
   */
  private record RecordKeyReader(int metaKeyPos, String[] fields, int[] fieldPos) {
    static RecordKeyReader of(Schema schema, HoodieTableMetaClient metaClient) {
      String[] fields = metaClient.getTableConfig().getRecordKeyFields().get();
      int[] positions = new int[fields.length];
      for (int i = 0; i < fields.length; i++) {
        positions[i] = schema.getField(fields[i]).pos();
      }
      Schema.Field metaKey = schema.getField("_hoodie_record_key");
      return new RecordKeyReader(metaKey == null ? -1 : metaKey.pos(), fields, positions);
    }

    String read(IndexedRecord row) {
      Object metaKey = metaKeyPos < 0 ? null : row.get(metaKeyPos);
      if (metaKey != null) {
        return metaKey.toString();
      }
      if (fields.length == 1) {
        return String.valueOf(row.get(fieldPos[0]));
      }
      StringBuilder key = new StringBuilder();
      for (int i = 0; i < fields.length; i++) {
        key.append(i == 0 ? "" : ",").append(fields[i]).append(':').append(row.get(fieldPos[i]));
      }
      return key.toString();
    }
  }
}
