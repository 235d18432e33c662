package dev.mortar.benchmark.compaction;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hudi.avro.model.HoodieCompactionOperation;
import org.apache.hudi.avro.model.HoodieCompactionPlan;
import org.apache.hudi.common.model.HoodieCommitMetadata;
import org.apache.hudi.common.model.HoodieWriteStat;
import org.apache.hudi.common.table.HoodieTableMetaClient;
import org.apache.hudi.common.table.timeline.HoodieInstant;
import org.apache.hudi.common.table.timeline.HoodieTimeline;
import org.apache.hudi.common.util.CompactionUtils;
import org.apache.hudi.hadoop.fs.HadoopFSUtils;

/**
 * The pending compaction plans of a local table as Hudi's timeline shows them: their instants and
 * the bytes of the log and base files they merge; and, once compacted, the records their commits
 * wrote. Hudi's own view is the judge for both compactors.
 */
record PendingPlans(Path table, List<String> instants, long inputBytes, int logFiles) {

  /** Reads the plans pending in {@code table}. */
  static PendingPlans of(Path table) {
    HoodieTableMetaClient metaClient = metaClient(table);
    List<String> instants = pendingInstants(metaClient);
    long bytes = 0;
    int logFiles = 0;
    for (String instant : instants) {
      HoodieCompactionPlan plan = CompactionUtils.getCompactionPlan(metaClient, instant);
      for (HoodieCompactionOperation operation : plan.getOperations()) {
        Path partition = table.resolve(operation.getPartitionPath());
        for (String log : operation.getDeltaFilePaths()) {
          bytes += size(partition.resolve(log));
          logFiles++;
        }
        if (operation.getDataFilePath() != null) {
          bytes += size(partition.resolve(operation.getDataFilePath()));
        }
      }
    }
    return new PendingPlans(table, instants, bytes, logFiles);
  }

  /** The same plans in a copy of the table. */
  PendingPlans in(Path copy) {
    return new PendingPlans(copy, instants, inputBytes, logFiles);
  }

  /** The compaction instants still pending in the table now. */
  List<String> stillPending() {
    return pendingInstants(metaClient(table));
  }

  /**
   * The records the completed compactions of these plans wrote (sum of numWrites of their commit
   * metadata).
   *
   * @throws IllegalStateException naming a plan that has no completed commit
   */
  long recordsWritten() {
    HoodieTableMetaClient metaClient = metaClient(table);
    HoodieTimeline commits =
        metaClient.getActiveTimeline().getCommitTimeline().filterCompletedInstants();
    long records = 0;
    for (String instant : instants) {
      HoodieInstant commit =
          commits
              .filter(i -> i.requestedTime().equals(instant))
              .firstInstant()
              .orElseThrow(
                  () ->
                      new IllegalStateException(
                          "compaction " + instant + " of " + table + " has no completed commit"));
      try {
        HoodieCommitMetadata metadata = commits.readCommitMetadata(commit);
        for (HoodieWriteStat stat : metadata.getWriteStats()) {
          records += stat.getNumWrites();
        }
      } catch (IOException e) {
        throw new UncheckedIOException("reading the commit of compaction " + instant, e);
      }
    }
    return records;
  }

  private static List<String> pendingInstants(HoodieTableMetaClient metaClient) {
    List<String> instants = new ArrayList<>();
    metaClient
        .getActiveTimeline()
        .filterPendingCompactionTimeline()
        .getInstants()
        .forEach(instant -> instants.add(instant.requestedTime()));
    return instants;
  }

  private static HoodieTableMetaClient metaClient(Path table) {
    return HoodieTableMetaClient.builder()
        .setConf(HadoopFSUtils.getStorageConf(new Configuration()))
        .setBasePath(table.toUri().toString())
        .build();
  }

  private static long size(Path file) {
    try {
      return Files.size(file);
    } catch (IOException e) {
      throw new UncheckedIOException("a file of a compaction plan is missing: " + file, e);
    }
  }
}
