package dev.mortar.writer.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mortar.testing.Seeds;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.apache.avro.generic.GenericRecord;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.hadoop.conf.Configuration;
import org.apache.hudi.common.model.HoodieCommitMetadata;
import org.apache.hudi.common.table.HoodieTableMetaClient;
import org.apache.hudi.common.table.timeline.HoodieArchivedTimeline;
import org.apache.hudi.common.table.timeline.HoodieInstant;
import org.apache.hudi.common.table.timeline.HoodieTimeline;
import org.apache.parquet.avro.AvroParquetReader;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Archival of the active timeline, judged by Hudi 1.1.1. {@link #hudiArchiverLayout} runs Hudi's
 * own archiver on a Mortar table and logs what it writes (the facts of rfc/0007, "Archived (LSM)
 * timeline"). {@link #mortarArchivesWhatHudiReads} runs a long compacting job that archives beyond
 * {@value #MAX_COMMITS} commits: the active timeline stays bounded while it runs (polled), Hudi's
 * archived timeline lists the archived instants with their completion times and commit metadata,
 * files older than the active timeline still read, layer 0 of the archive stays merged, and Hudi's
 * client compacts, cleans and archives on top with the read exact.
 */
class ArchivalITCase {
  private static final Logger LOG = LoggerFactory.getLogger(ArchivalITCase.class);

  /** The job's 'archive.max-commits' ('archive.min-commits' is half). */
  private static final int MAX_COMMITS = 12;

  /**
   * Completed commits the active timeline may hold beyond {@link #MAX_COMMITS}: those completed
   * while a run is under way (one at a time) and before the next starts.
   */
  private static final int SLACK = 6;

  @RegisterExtension static final MiniClusterExtension MINI_CLUSTER = MiniClusters.withSlots(4);

  @TempDir Path dir;

  @Test
  void hudiArchiverLayout() throws Exception {
    long seed = Seeds.seed("ArchivalITCase");
    SinkJob job =
        SinkJob.at(dir.resolve("t").toUri().toString())
            .parallelism(2)
            .buckets(2)
            .perCheckpoint(20)
            .compactEvery(2)
            .build();
    Changelog all = Changelog.random(seed, 600, 100, 100, 30).withoutStaleChangesAfterDeletes();
    job.runDataStream(all);
    Path timeline = dir.resolve("t/.hoodie/timeline");
    LOG.info("before: {}", listing(timeline));
    HudiClient.archive(job.path(), 4, 6);
    LOG.info("after: {}", listing(timeline));
    Path history = timeline.resolve("history");
    LOG.info("history: {}", listing(history));
    List<String> names =
        files(history).stream()
            .map(f -> f.getFileName().toString())
            .filter(name -> !name.endsWith(".crc"))
            .toList();
    assertThat(names).hasSize(3).contains("_version_", "manifest_1");
    String dataFile = names.get(0);
    assertThat(dataFile).as("the one data file of layer 0").matches("\\d{17}_\\d{17}_0\\.parquet");
    assertThat(Files.readString(history.resolve("_version_"))).isEqualTo("1");
    String manifest = Files.readString(history.resolve("manifest_1"));
    LOG.info("manifest_1:\n{}", manifest);
    assertThat(manifest)
        .isEqualTo(
            "{\n  \"files\" : [ {\n    \"fileName\" : \""
                + dataFile
                + "\",\n    \"fileLen\" : "
                + Files.size(history.resolve(dataFile))
                + "\n  } ]\n}");
    org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path(history.resolve(dataFile).toUri());
    try (ParquetFileReader reader =
        ParquetFileReader.open(HadoopInputFile.fromPath(p, new Configuration()))) {
      ParquetMetadata footer = reader.getFooter();
      LOG.info(
          "{}: schema {}\nkv {}\nrowgroups {} created by {}",
          dataFile,
          footer.getFileMetaData().getSchema(),
          footer.getFileMetaData().getKeyValueMetaData(),
          footer.getBlocks().size(),
          footer.getFileMetaData().getCreatedBy());
      footer.getBlocks().get(0).getColumns().forEach(c -> LOG.info("  column {}", c));
      assertThat(footer.getFileMetaData().getKeyValueMetaData())
          .as("the footer Mortar's archiver writes too")
          .containsEntry("parquet.avro.schema", mortarArchiveSchema())
          .containsEntry("writer.model.name", "avro");
    }
    List<String> instants = new ArrayList<>();
    try (ParquetReader<GenericRecord> records =
        AvroParquetReader.<GenericRecord>builder(HadoopInputFile.fromPath(p, new Configuration()))
            .build()) {
      for (GenericRecord r = records.read(); r != null; r = records.read()) {
        LOG.info(
            "  record {} {} {} metadata {} plan {} version {}",
            r.get("instantTime"),
            r.get("completionTime"),
            r.get("action"),
            size(r.get("metadata")),
            size(r.get("plan")),
            r.get("version"));
        instants.add(r.get("instantTime").toString());
        assertThat(r.get("action").toString()).isIn("deltacommit", "commit", "clean");
        if (!r.get("action").toString().equals("clean")) {
          assertThat(r.get("plan") != null)
              .as("a plan with %s", r)
              .isEqualTo(r.get("action").toString().equals("commit"));
        }
        assertThat(r.get("metadata")).as("metadata of %s", r).isNotNull();
        assertThat(r.get("version")).isEqualTo(1);
      }
    }
    assertThat(instants).as("records in requested-time order").isSorted().hasSizeGreaterThan(10);
    job.verify(all);
  }

  private static String mortarArchiveSchema() throws IOException {
    try (var in =
        ArchivalITCase.class.getResourceAsStream(
            "/dev/mortar/writer/archive/HoodieLSMTimelineInstant.avsc")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
    }
  }

  @Test
  void mortarArchivesWhatHudiReads() throws Exception {
    long seed = Seeds.seed("ArchivalITCase");
    LOG.info("seed {}", seed);
    SinkJob job =
        SinkJob.at(dir.resolve("t").toUri().toString())
            .parallelism(2)
            .partitioned(true)
            .buckets(2)
            .perCheckpoint(10)
            .compactEvery(2)
            .archiveBeyond(MAX_COMMITS)
            .build();
    Changelog all = Changelog.random(seed, 700, 150, 100, 30).withoutStaleChangesAfterDeletes();
    Changelog first = all.slice(0, 600);
    Path timeline = dir.resolve("t/.hoodie/timeline");
    int mostActive = runPollingActiveCommits(job, first, timeline);
    LOG.info("at most {} completed commits active during the job", mostActive);
    assertThat(mostActive)
        .as("completed commits active during the job, seed %s", seed)
        .isBetween(MAX_COMMITS, MAX_COMMITS + SLACK);
    HoodieTableMetaClient metaClient = HudiClient.metaClient(job.path());
    HoodieTimeline active = metaClient.getActiveTimeline().getCommitsTimeline();
    int activeCommits = active.filterCompletedInstants().countInstants();
    LOG.info(
        "active completed commits {}, history {}",
        activeCommits,
        listing(timeline.resolve("history")));
    assertThat(activeCommits)
        .as("completed commits left active, seed %s", seed)
        .isBetween(MAX_COMMITS / 2, MAX_COMMITS + SLACK);
    assertThat(active.filter(i -> !i.isCompleted()).countInstants()).as("pending").isZero();
    List<String> snapshot = latestSnapshot(timeline.resolve("history"));
    LOG.info("latest snapshot of the archive: {}", snapshot);
    assertThat(snapshot)
        .as("layer-0 files Mortar left unmerged, seed %s", seed)
        .filteredOn(name -> name.endsWith("_0.parquet"))
        .hasSizeLessThan(10);

    HoodieArchivedTimeline archived = metaClient.getArchivedTimeline();
    archived.loadCompletedInstantDetailsInMemory();
    List<HoodieInstant> archivedInstants = archived.getInstants();
    assertThat(archivedInstants).as("archived instants, seed %s", seed).hasSizeGreaterThan(20);
    String activeStart = active.firstInstant().get().requestedTime();
    for (HoodieInstant instant : archivedInstants) {
      assertThat(instant.isCompleted()).as("%s completed", instant).isTrue();
      assertThat(instant.getCompletionTime()).as("completion of %s", instant).isNotNull();
      assertThat(instant.getCompletionTime()).isGreaterThan(instant.requestedTime());
      assertThat(instant.requestedTime())
          .as("%s before the active timeline", instant)
          .isLessThan(activeStart);
      assertThat(instant.getAction()).isIn("deltacommit", "commit", "clean");
      if (!instant.getAction().equals("clean")) {
        HoodieCommitMetadata metadata = archived.readCommitMetadata(instant);
        assertThat(metadata.getPartitionToWriteStats())
            .as("write stats of %s", instant)
            .isNotEmpty();
      }
    }
    assertThat(archivedInstants.stream().map(HoodieInstant::getAction).distinct())
        .contains("deltacommit", "commit");

    List<String> olderLogs = logsBefore(dir.resolve("t"), activeStart);
    LOG.info("{} log file(s) of archived delta commits", olderLogs.size());
    assertThat(olderLogs)
        .as("log files older than the active timeline, seed %s", seed)
        .isNotEmpty();
    job.verify(first);

    Changelog second = all.slice(600, 700);
    job.toBuilder().compactEvery(0).build().runDataStream(second);
    assertThat(HudiClient.scheduleAndCompact(job.path()).isPresent())
        .as("Hudi compacts the table Mortar archived, seed %s", seed)
        .isTrue();
    HudiClient.cleanToLatestVersion(job.path());
    job.verify(all);
    HudiClient.archive(job.path(), 4, 6);
    HoodieArchivedTimeline afterHudi = HudiClient.metaClient(job.path()).getArchivedTimeline();
    assertThat(afterHudi.getInstants().stream().map(HoodieInstant::requestedTime))
        .as("Hudi's archiver keeps what Mortar archived, seed %s", seed)
        .containsAll(archivedInstants.stream().map(HoodieInstant::requestedTime).toList());
    job.verify(all);
  }

  @Test
  void aJobThatCommitsNothingSettlesAnArchivalLeftHalfDone() throws Exception {
    long seed = Seeds.seed("ArchivalITCase");
    SinkJob job =
        SinkJob.at(dir.resolve("t").toUri().toString()).archiveBeyond(MAX_COMMITS).build();
    Changelog changes = Changelog.random(seed, 100, 50, 100, 30).withoutStaleChangesAfterDeletes();
    job.runDataStream(changes);
    // as a run left it that died after writing its data file, before publishing it
    Path unpublished = dir.resolve("t/.hoodie/timeline/history/1_2_0.parquet");
    Files.createDirectories(unpublished.getParent());
    Files.write(unpublished, new byte[] {1});
    Path intent = dir.resolve("t/.hoodie/.temp/archive.pending");
    Files.writeString(intent, unpublished.getFileName().toString());

    job.runDataStream(changes.slice(0, 0));

    assertThat(intent).as("the intent, settled at the end of input").doesNotExist();
    assertThat(unpublished).as("the unpublished data file, discarded").doesNotExist();
    job.verify(changes);
  }

  /** Runs {@code job}; returns the most completed commits the active timeline held meanwhile. */
  private static int runPollingActiveCommits(SinkJob job, Changelog changelog, Path timeline)
      throws Exception {
    AtomicInteger most = new AtomicInteger();
    AtomicBoolean done = new AtomicBoolean();
    Thread poller =
        new Thread(
            () -> {
              while (!done.get()) {
                try (Stream<Path> files = Files.list(timeline)) {
                  int completed =
                      (int)
                          files
                              .map(f -> f.getFileName().toString())
                              .filter(n -> n.matches("\\d{17}_\\d{17}\\.(delta)?commit"))
                              .count();
                  most.accumulateAndGet(completed, Math::max);
                  Thread.sleep(20);
                } catch (IOException | java.io.UncheckedIOException notYetThere) {
                  // the table is created by the job
                } catch (InterruptedException e) {
                  return;
                }
              }
            },
            "active-timeline-poller");
    poller.start();
    try {
      job.runDataStream(changelog);
    } finally {
      done.set(true);
      poller.join();
    }
    return most.get();
  }

  /** The data files the latest snapshot of the archived timeline in {@code history} lists. */
  private static List<String> latestSnapshot(Path history) throws IOException {
    String version = Files.readString(history.resolve("_version_")).trim();
    JsonNode manifest =
        new ObjectMapper().readTree(Files.readString(history.resolve("manifest_" + version)));
    List<String> files = new ArrayList<>();
    manifest.get("files").forEach(file -> files.add(file.get("fileName").asText()));
    for (String file : files) {
      assertThat(history.resolve(file)).as("listed in manifest_%s", version).exists();
    }
    return files;
  }

  /** Log files below {@code base} whose delta commit is older than {@code activeStart}. */
  private static List<String> logsBefore(Path base, String activeStart) throws IOException {
    try (Stream<Path> files = Files.walk(base)) {
      return files
          .map(file -> file.getFileName().toString())
          .filter(name -> name.contains(".log.") && !name.endsWith(".crc"))
          .filter(
              name ->
                  name.substring(name.indexOf('_') + 1, name.indexOf(".log."))
                          .compareTo(activeStart)
                      < 0)
          .toList();
    }
  }

  private static Object size(Object bytes) {
    return bytes == null ? null : ((java.nio.ByteBuffer) bytes).remaining();
  }

  private static List<Path> files(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.sorted().toList();
    }
  }

  private static String listing(Path dir) throws IOException {
    StringBuilder out = new StringBuilder();
    for (Path file : files(dir)) {
      out.append('\n').append(file.getFileName()).append(' ').append(Files.size(file));
    }
    return out.toString();
  }
}
