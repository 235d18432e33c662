package dev.mortar.writer.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mortar.testing.Seeds;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.hudi.avro.model.HoodieCompactionOperation;
import org.apache.hudi.avro.model.HoodieCompactionPlan;
import org.apache.hudi.common.model.HoodieBaseFile;
import org.apache.hudi.common.model.HoodieLogFile;
import org.apache.hudi.common.table.HoodieTableMetaClient;
import org.apache.hudi.common.table.timeline.HoodieInstant;
import org.apache.hudi.common.util.CompactionUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Mortar jobs schedule a compaction every 2 delta commits; Hudi is the judge of the plans. Hudi's
 * {@link CompactionUtils} reads every pending plan, which must hold exactly the slices and log
 * files the file-slicing rule gives (computed here from Hudi's own timeline and file name classes);
 * a second job on the table, whose committer knows only the timeline, plans no file group twice;
 * Hudi's Java client executes the plans; Hudi's reader then shows exactly the latest row per key,
 * also after Mortar wrote on top of the compacted table and Hudi compacted again.
 */
class CompactionPlanITCase {
  private static final Logger LOG = LoggerFactory.getLogger(CompactionPlanITCase.class);

  @RegisterExtension static final MiniClusterExtension MINI_CLUSTER = MiniClusters.withSlots(4);

  @TempDir Path dir;

  @Test
  void hudiExecutesThePlansMortarSchedules() throws Exception {
    long seed = Seeds.seed("CompactionPlanITCase");
    LOG.info("seed {}", seed);
    SinkJob job =
        SinkJob.at(dir.resolve("t").toUri().toString())
            .parallelism(2)
            .partitioned(true)
            .buckets(2)
            .perCheckpoint(40)
            .compactEvery(2)
            .compactionInJob(false)
            .build();
    Changelog first = Changelog.random(seed, 400, 150, 100, 30);
    Changelog second = Changelog.random(seed + 1, 400, 150, 100, 30);
    Changelog third = Changelog.random(seed + 2, 400, 150, 100, 30);

    job.runDataStream(first);
    List<HoodieCompactionPlan> planned = checkPendingPlans(job.path());
    assertThat(planned).as("plans after the first job, seed %s", seed).isNotEmpty();
    job.runDataStream(second);
    checkPendingPlans(job.path());
    HudiClient.compactPending(job.path());
    job.verify(first.followedBy(second));

    job.runDataStream(third);
    List<HoodieCompactionPlan> onBaseFiles = checkPendingPlans(job.path());
    assertThat(onBaseFiles.stream().flatMap(plan -> plan.getOperations().stream()))
        .as("slices of compacted file groups: base file plus logs, seed %s", seed)
        .anyMatch(operation -> operation.getDataFilePath() != null);
    HudiClient.compactPending(job.path());
    job.verify(first.followedBy(second).followedBy(third));
    job.verifyNothingUncommittedLeft();
  }

  /**
   * Reads every pending plan with Hudi, oldest first, and checks it holds exactly the operations
   * the slicing rule gives for its instant: per file group not in an older pending plan, the latest
   * slice's logs whose delta commits completed before the plan. Returns the plans.
   */
  private static List<HoodieCompactionPlan> checkPendingPlans(String path) throws IOException {
    HoodieTableMetaClient metaClient = HudiClient.metaClient(path);
    // Throws if a file group is in two pending plans.
    CompactionUtils.getAllPendingCompactionOperations(metaClient);
    Map<String, String> completions = new HashMap<>();
    metaClient
        .getActiveTimeline()
        .getDeltaCommitTimeline()
        .filterCompletedInstants()
        .getInstants()
        .forEach(i -> completions.put(i.requestedTime(), i.getCompletionTime()));
    Set<String> compactionCommits = new HashSet<>();
    metaClient
        .getActiveTimeline()
        .getCommitTimeline()
        .filterCompletedInstants()
        .getInstants()
        .forEach(i -> compactionCommits.add(i.requestedTime()));
    TableFilesOnDisk files = TableFilesOnDisk.list(path);
    Set<String> inOlderPlans = new HashSet<>();
    List<HoodieCompactionPlan> plans = new ArrayList<>();
    for (HoodieInstant instant :
        metaClient.getActiveTimeline().filterPendingCompactionTimeline().getInstants()) {
      String c = instant.requestedTime();
      HoodieCompactionPlan plan = CompactionUtils.getCompactionPlan(metaClient, c);
      assertThat(plan.getVersion()).as("version of plan %s", c).isEqualTo(2);
      Map<String, HoodieCompactionOperation> actual = new TreeMap<>();
      for (HoodieCompactionOperation operation : plan.getOperations()) {
        assertThat(operation.getMetrics()).containsKey("TOTAL_LOG_FILES_SIZE");
        actual.put(operation.getPartitionPath() + "/" + operation.getFileId(), operation);
      }
      Map<String, List<String>> expectedLogs = new TreeMap<>();
      Map<String, String> expectedBase = new HashMap<>();
      files.groups.forEach(
          (group, groupFiles) -> {
            if (inOlderPlans.contains(group)) {
              return;
            }
            HoodieBaseFile base = null;
            for (HoodieBaseFile file : groupFiles.baseFiles) {
              if (compactionCommits.contains(file.getCommitTime())
                  && file.getCommitTime().compareTo(c) < 0
                  && (base == null || file.getCommitTime().compareTo(base.getCommitTime()) > 0)) {
                base = file;
              }
            }
            List<HoodieLogFile> logs = new ArrayList<>();
            for (HoodieLogFile log : groupFiles.logFiles) {
              String completion = completions.get(log.getDeltaCommitTime());
              if (completion != null
                  && completion.compareTo(c) < 0
                  && (base == null || completion.compareTo(base.getCommitTime()) >= 0)) {
                logs.add(log);
              }
            }
            if (!logs.isEmpty()) {
              logs.sort(HoodieLogFile.getLogFileComparator());
              expectedLogs.put(group, logs.stream().map(HoodieLogFile::getFileName).toList());
              expectedBase.put(
                  group, base == null ? logs.get(0).getDeltaCommitTime() : base.getCommitTime());
              if (base != null) {
                expectedBase.put(group + "#file", base.getFileName());
              }
            }
          });
      assertThat(actual.keySet()).as("file groups of plan %s", c).isEqualTo(expectedLogs.keySet());
      actual.forEach(
          (group, operation) -> {
            assertThat(operation.getDeltaFilePaths())
                .as("logs of %s in plan %s", group, c)
                .containsExactlyElementsOf(expectedLogs.get(group));
            assertThat(operation.getBaseInstantTime())
                .as("base instant of %s in plan %s", group, c)
                .isEqualTo(expectedBase.get(group));
            assertThat(operation.getDataFilePath())
                .as("base file of %s in plan %s", group, c)
                .isEqualTo(expectedBase.get(group + "#file"));
          });
      inOlderPlans.addAll(actual.keySet());
      plans.add(plan);
    }
    return plans;
  }

  /** The base and log files of a local table by file group ({@code partition/fileId}). */
  private record TableFilesOnDisk(Map<String, GroupFiles> groups) {
    record GroupFiles(List<HoodieBaseFile> baseFiles, List<HoodieLogFile> logFiles) {}

    static TableFilesOnDisk list(String path) throws IOException {
      Path base = Path.of(URI.create(path));
      Map<String, GroupFiles> groups = new TreeMap<>();
      try (Stream<Path> files = Files.walk(base)) {
        for (Path file : files.filter(Files::isRegularFile).toList()) {
          String name = file.getFileName().toString();
          String partition = base.relativize(file.getParent()).toString();
          if (partition.startsWith(".hoodie") || name.endsWith(".crc")) {
            continue;
          }
          if (name.contains(".log.")) {
            HoodieLogFile log = new HoodieLogFile(file.toUri().toString());
            filesOf(groups, partition, log.getFileId()).logFiles.add(log);
          } else if (name.endsWith(".parquet")) {
            HoodieBaseFile baseFile = new HoodieBaseFile(file.toUri().toString());
            filesOf(groups, partition, baseFile.getFileId()).baseFiles.add(baseFile);
          }
        }
      }
      return new TableFilesOnDisk(groups);
    }

    private static GroupFiles filesOf(
        Map<String, GroupFiles> groups, String partition, String fileId) {
      return groups.computeIfAbsent(
          partition + "/" + fileId, g -> new GroupFiles(new ArrayList<>(), new ArrayList<>()));
    }
  }
}
