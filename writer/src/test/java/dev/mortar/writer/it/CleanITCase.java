package dev.mortar.writer.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mortar.testing.Seeds;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.hudi.avro.model.HoodieCleanMetadata;
import org.apache.hudi.avro.model.HoodieCleanerPlan;
import org.apache.hudi.common.config.HoodieMetadataConfig;
import org.apache.hudi.common.engine.HoodieLocalEngineContext;
import org.apache.hudi.common.fs.FSUtils;
import org.apache.hudi.common.table.HoodieTableMetaClient;
import org.apache.hudi.common.table.timeline.HoodieInstant;
import org.apache.hudi.common.table.view.FileSystemViewManager;
import org.apache.hudi.common.table.view.HoodieTableFileSystemView;
import org.apache.hudi.common.util.CleanerUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Jobs that compact every 2 delta commits and clean after each compaction, keeping 2 commits,
 * judged by Hudi: the read is exact, Hudi's file system view holds few slices per file group, and
 * Hudi parses every clean plan and clean metadata Mortar wrote. Then Hudi's own Java client
 * compacts and cleans the table (an incremental clean that starts from Mortar's last clean), and a
 * clean Hudi planned and left inflight is finished by the next Mortar job.
 */
class CleanITCase {
  private static final Logger LOG = LoggerFactory.getLogger(CleanITCase.class);

  /**
   * Slices a file group keeps with 2 retained commits: the newest, the newest before the earliest
   * retained instant, and one of a compaction committed while the last clean ran.
   */
  private static final int MAX_SLICES_PER_GROUP = 3;

  @RegisterExtension static final MiniClusterExtension MINI_CLUSTER = MiniClusters.withSlots(4);

  @TempDir Path dir;

  private SinkJob job(int retainCommits) {
    return SinkJob.at(dir.resolve("t").toUri().toString())
        .parallelism(2)
        .partitioned(true)
        .ordering(true)
        .buckets(2)
        .perCheckpoint(60)
        .compactEvery(2)
        .cleanRetainCommits(retainCommits)
        .build();
  }

  @Test
  void cleansAfterCompactionsAndHudiAcceptsTheCleanedTable() throws Exception {
    long seed = Seeds.seed("CleanITCase");
    LOG.info("seed {}", seed);
    SinkJob job = job(2);
    Changelog all = Changelog.random(seed, 1500, 200, 100, 30).withoutStaleChangesAfterDeletes();
    Changelog first = all.slice(0, 1000);
    Changelog uncompacted = all.slice(1000, 1200);
    Changelog second = all.slice(1200, 1500);

    job.runDataStream(first);
    job.verify(first);
    job.verifyNothingUncommittedLeft();
    Map<String, Integer> slices = slicesPerFileGroup(job.path());
    LOG.info("slices per file group after the first job: {}", slices);
    assertThat(slices).as("seed %s", seed).isNotEmpty();
    assertThat(slices.values())
        .as("slices per file group, seed %s", seed)
        .allSatisfy(count -> assertThat(count).isLessThanOrEqualTo(MAX_SLICES_PER_GROUP));
    List<HoodieInstant> cleans = completedCleans(job.path());
    assertThat(cleans).as("completed cleans, seed %s", seed).isNotEmpty();
    assertHudiParses(job.path(), cleans);

    job.toBuilder().compactEvery(0).build().runDataStream(uncompacted);
    assertThat(HudiClient.scheduleAndCompact(job.path()).isPresent())
        .as("Hudi schedules a compaction of the logs a job without compaction left, seed %s", seed)
        .isTrue();
    // Keeping one file version: the slice Hudi's compaction superseded is always there to delete,
    // whatever Mortar's last clean left.
    int deletedByHudi = HudiClient.cleanToLatestVersion(job.path());
    LOG.info("Hudi's clean deleted {} file(s)", deletedByHudi);
    assertThat(deletedByHudi).as("files Hudi's clean deleted, seed %s", seed).isPositive();
    assertThat(completedCleans(job.path())).hasSizeGreaterThan(cleans.size());
    job.verify(first.followedBy(uncompacted));

    job.runDataStream(second);
    job.verify(all);
    job.verifyNothingUncommittedLeft();
    assertThat(slicesPerFileGroup(job.path()).values())
        .allSatisfy(count -> assertThat(count).isLessThanOrEqualTo(MAX_SLICES_PER_GROUP));
  }

  @Test
  void aCleanLeftInflightIsFinishedByTheNextJob() throws Exception {
    long seed = Seeds.seed("CleanITCase");
    LOG.info("seed {}", seed);
    Changelog all = Changelog.random(seed, 1200, 200, 100, 30).withoutStaleChangesAfterDeletes();
    Changelog first = all.slice(0, 800);
    Changelog second = all.slice(800, 1200);
    SinkJob keepsEverything = job(1000);
    keepsEverything.runDataStream(first);
    assertThat(completedCleans(keepsEverything.path())).isEmpty();

    String cleanInstant =
        HudiClient.scheduleCleanKeepingCommits(keepsEverything.path(), 2)
            .orElseThrow(() -> new AssertionError("Hudi plans no clean, seed " + seed));
    Path timeline = Path.of(URI.create(keepsEverything.path())).resolve(".hoodie/timeline");
    Files.createFile(timeline.resolve(cleanInstant + ".clean.inflight"));
    HoodieCleanerPlan plan =
        CleanerUtils.getCleanerPlan(
            HudiClient.metaClient(keepsEverything.path()),
            HudiClient.metaClient(keepsEverything.path())
                .getActiveTimeline()
                .getCleanerTimeline()
                .filterInflightsAndRequested()
                .firstInstant()
                .get());
    List<Path> planned = new ArrayList<>();
    plan.getFilePathsToBeDeletedPerPartition()
        .values()
        .forEach(files -> files.forEach(f -> planned.add(Path.of(URI.create(f.getFilePath())))));
    assertThat(planned).as("seed %s", seed).isNotEmpty().allMatch(Files::exists);
    Files.delete(planned.get(0));

    SinkJob job = job(2);
    job.runDataStream(second);

    assertThat(planned).as("files of the clean left inflight").noneMatch(Files::exists);
    assertThat(completedCleans(job.path()))
        .extracting(HoodieInstant::requestedTime)
        .contains(cleanInstant);
    assertThat(
            HudiClient.metaClient(job.path())
                .getActiveTimeline()
                .getCleanerTimeline()
                .filterInflightsAndRequested()
                .getInstants())
        .as("pending cleans")
        .isEmpty();
    job.verify(all);
    job.verifyNothingUncommittedLeft();
  }

  /** Hudi reads each clean's plan and metadata; the metadata lists files that are gone. */
  private static void assertHudiParses(String path, List<HoodieInstant> cleans) throws IOException {
    HoodieTableMetaClient metaClient = HudiClient.metaClient(path);
    Path base = Path.of(URI.create(path));
    for (HoodieInstant clean : cleans) {
      HoodieCleanerPlan plan =
          CleanerUtils.getCleanerPlan(
              metaClient, CleanerUtils.getCleanRequestInstant(metaClient, clean));
      HoodieCleanMetadata metadata = CleanerUtils.getCleanerMetadata(metaClient, clean);
      assertThat(plan.getPolicy()).isEqualTo("KEEP_LATEST_COMMITS");
      assertThat(plan.getVersion()).isEqualTo(2);
      assertThat(plan.getEarliestInstantToRetain().getTimestamp())
          .isEqualTo(metadata.getEarliestCommitToRetain());
      assertThat(metadata.getStartCleanTime()).isEqualTo(clean.requestedTime());
      int planned =
          plan.getFilePathsToBeDeletedPerPartition().values().stream().mapToInt(List::size).sum();
      assertThat(metadata.getTotalFilesDeleted()).isEqualTo(planned).isPositive();
      metadata
          .getPartitionMetadata()
          .forEach(
              (partition, deleted) ->
                  assertThat(deleted.getSuccessDeleteFiles())
                      .allSatisfy(
                          name ->
                              assertThat(base.resolve(partition).resolve(name))
                                  .as("deleted by clean %s", clean.requestedTime())
                                  .doesNotExist()));
    }
  }

  private static List<HoodieInstant> completedCleans(String path) {
    return HudiClient.metaClient(path)
        .getActiveTimeline()
        .getCleanerTimeline()
        .filterCompletedInstants()
        .getInstants();
  }

  /** Slices per file group in Hudi's file system view of the completed instants. */
  private static Map<String, Integer> slicesPerFileGroup(String path) {
    HoodieTableMetaClient metaClient = HudiClient.metaClient(path);
    HoodieLocalEngineContext engine = new HoodieLocalEngineContext(metaClient.getStorageConf());
    HoodieTableFileSystemView view =
        FileSystemViewManager.createInMemoryFileSystemView(
            engine, metaClient, HoodieMetadataConfig.newBuilder().enable(false).build());
    Map<String, Integer> slices = new TreeMap<>();
    for (String partition : FSUtils.getAllPartitionPaths(engine, metaClient, false)) {
      view.getAllFileGroups(partition)
          .forEach(
              group ->
                  slices.put(
                      group.getFileGroupId().toString(), (int) group.getAllFileSlices().count()));
    }
    return slices;
  }
}
