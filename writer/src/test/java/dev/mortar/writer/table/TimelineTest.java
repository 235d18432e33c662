package dev.mortar.writer.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.apache.avro.file.DataFileStream;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hudi.common.model.HoodieCommitMetadata;
import org.apache.hudi.common.model.HoodieDeltaWriteStat;
import org.apache.hudi.common.model.HoodieWriteStat;
import org.apache.hudi.common.model.WriteOperationType;
import org.apache.hudi.common.table.timeline.versioning.v2.CommitMetadataSerDeV2;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TimelineTest {
  private static final Clock FROZEN =
      Clock.fixed(Instant.parse("2026-11-22T12:00:00.000Z"), ZoneId.of("UTC"));
  private static final WriteStat STAT =
      new WriteStat(
          "2024-01-01", "00000001-abc", ".00000001-abc_1.log.1_0-1-0", 1, 2, 1, 1, 2, 100, 5);

  @TempDir java.nio.file.Path dir;
  private FileSystem fs;
  private Path base;
  private TableSettings settings;

  @BeforeEach
  void setUp() throws Exception {
    fs = FileSystem.getLocal(new Configuration());
    base = new Path(dir.resolve("t").toString());
    settings =
        new TableSettings(
            "t", HudiReaderAcceptsTableContract.ROW, List.of("id"), List.of("dt"), "ts");
  }

  @Test
  void publishLeftoversOlderThanTheAgeAreDeletedAndNothingElse() throws Exception {
    Timeline timeline = HudiTable.createOrValidate(fs, base, settings).timeline();
    java.nio.file.Path temp = Files.createDirectories(dir.resolve("t/.hoodie/.temp"));
    String leftoverName = "20261127043000000_20261127043001000.deltacommit." + UUID.randomUUID();
    java.nio.file.Path old = Files.writeString(temp.resolve(leftoverName + ".tmp"), "{}");
    java.nio.file.Path fresh =
        Files.writeString(
            temp.resolve("20261127043002000.clean." + UUID.randomUUID() + ".tmp"), "");
    java.nio.file.Path intent = Files.writeString(temp.resolve("archive.pending"), "x");
    java.nio.file.Path notStaged = Files.writeString(temp.resolve("notes.tmp"), "");
    java.nio.file.Path marker =
        Files.createDirectories(temp.resolve("20261127043000500/dt=1"))
            .resolve("f1_0-1-0_20261127043000500.parquet.marker.MERGE");
    Files.createFile(marker);
    FileTime twoMinutesAgo = FileTime.fromMillis(System.currentTimeMillis() - 120_000);
    for (java.nio.file.Path file : List.of(old, intent, notStaged, marker)) {
      Files.setLastModifiedTime(file, twoMinutesAgo);
    }

    assertThat(timeline.deletePublishLeftovers(Duration.ofMinutes(1))).isEqualTo(1);

    assertThat(old).doesNotExist();
    assertThat(List.of(fresh, intent, notStaged, marker)).allSatisfy(f -> assertThat(f).exists());
  }

  @Test
  void instantsAreUniqueAndIncreasingWithinOneMillisecond() {
    Timeline timeline = HudiTable.createOrValidate(fs, base, settings, FROZEN).timeline();
    List<String> instants = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      instants.add(timeline.startInstant());
    }
    assertThat(instants)
        .containsExactly(
            "20261122120000000",
            "20261122120000003",
            "20261122120000006",
            "20261122120000009",
            "20261122120000012");
    assertThat(timeline.pendingInstants()).isEqualTo(instants);
  }

  @Test
  void completionTimeFollowsRequestedTimeAndRestartsNeverGoBack() throws Exception {
    Timeline timeline = HudiTable.createOrValidate(fs, base, settings, FROZEN).timeline();
    String first = timeline.startInstant();
    timeline.complete(first, List.of(STAT), "{}");
    assertThat(names()).contains(first + "_20261122120000001.deltacommit");

    Clock hourEarlier = Clock.offset(FROZEN, Duration.ofHours(-1));
    String next =
        HudiTable.createOrValidate(fs, base, settings, hourEarlier).timeline().startInstant();
    assertThat(next).isEqualTo("20261122120000003");
  }

  @Test
  void timesStayUniqueWhenOneProcessStartsAndAnotherCompletes() throws Exception {
    Timeline coordinator = HudiTable.createOrValidate(fs, base, settings, FROZEN).timeline();
    Timeline committer = HudiTable.createOrValidate(fs, base, settings, FROZEN).timeline();
    String first = coordinator.startInstant();
    committer.complete(first, List.of(STAT), "{}");
    String second = coordinator.startInstant();
    committer.complete(second, List.of(STAT), "{}");
    assertThat(names())
        .contains(
            "20261122120000000_20261122120000001.deltacommit",
            "20261122120000003_20261122120000004.deltacommit");
  }

  @Test
  void completeIsIdempotentAndRequiresAStartedInstant() throws Exception {
    Timeline timeline = HudiTable.createOrValidate(fs, base, settings).timeline();
    String instant = timeline.startInstant();
    timeline.complete(instant, List.of(STAT), "{}");
    timeline.complete(instant, List.of(STAT), "{}");
    assertThat(names().stream().filter(n -> n.matches(instant + "_\\d{17}\\.deltacommit")))
        .hasSize(1);
    assertThat(timeline.isCompleted(instant)).isTrue();
    assertThat(timeline.completedInstants()).containsExactly(instant);
    assertThat(timeline.pendingInstants()).isEmpty();
    assertThat(names())
        .contains(instant + ".deltacommit.requested", instant + ".deltacommit.inflight");

    assertThatThrownBy(() -> timeline.complete("29990101000000000", List.of(), "{}"))
        .hasMessageContaining("cannot complete instant 29990101000000000: it has no requested");
    List<String> before = names();
    timeline.complete("20200101000000000", List.of(), "{}"); // older than the timeline: archived
    assertThat(names()).as("nothing written for an archived instant").isEqualTo(before);
    assertThatThrownBy(() -> timeline.abort(instant))
        .hasMessage("cannot abort instant " + instant + ": it is completed");
  }

  @Test
  void abortRemovesPendingFilesAndTheInstantsLogFilesOnly() throws Exception {
    Timeline timeline = HudiTable.createOrValidate(fs, base, settings).timeline();
    String kept = timeline.startInstant();
    String aborted = timeline.startInstant();
    Path keptLog = touch("2024-01-01/.00000001-abc_" + kept + ".log.1_0-1-0");
    Path abortedLog = touch("2024-01-01/.00000001-abc_" + aborted + ".log.1_0-1-0");
    Path abortedLog2 = touch("a/b/.00000002-abc_" + aborted + ".log.2_1-2-0");
    timeline.abort(aborted);
    assertThat(fs.exists(keptLog)).isTrue();
    assertThat(fs.exists(abortedLog)).isFalse();
    assertThat(fs.exists(abortedLog2)).isFalse();
    assertThat(timeline.pendingInstants()).containsExactly(kept);
  }

  @Test
  void unschedulingAPendingCompactionRemovesItsPlanMarkersAndBaseFilesOnly() throws Exception {
    Timeline timeline = HudiTable.createOrValidate(fs, base, settings).timeline();
    String delta = timeline.startInstant();
    timeline.complete(delta, List.of(STAT), "{}");
    String compaction = timeline.newInstantTime(InstantIssuer.COMPACTION_PLANS);
    timeline.requestCompaction(compaction, new byte[0]);
    timeline.startCompaction(compaction);
    Path log = touch("2024-01-01/.00000001-abc_" + delta + ".log.1_0-1-0");
    String partial = "00000001-abc_0-1-0_" + compaction + ".parquet";
    String unpartitioned = "00000002-abc_0-1-0_" + compaction + ".parquet";
    Path partialFile = touch("2024-01-01/" + partial);
    Path unpartitionedFile = touch(unpartitioned);
    touch(".hoodie/.temp/" + compaction + "/2024-01-01/" + partial + Timeline.MERGE_MARKER_SUFFIX);
    touch(".hoodie/.temp/" + compaction + "/" + unpartitioned + Timeline.MERGE_MARKER_SUFFIX);

    timeline.unscheduleCompaction(compaction);

    assertThat(fs.exists(partialFile)).isFalse();
    assertThat(fs.exists(unpartitionedFile)).isFalse();
    assertThat(fs.exists(timeline.markerDir(compaction))).isFalse();
    assertThat(fs.exists(log)).as("the slice's log").isTrue();
    assertThat(fs.listStatus(timeline.timelineDir()))
        .extracting(status -> status.getPath().getName())
        .noneMatch(name -> name.startsWith(compaction));
    assertThat(timeline.isCompleted(delta)).isTrue();
    timeline.unscheduleCompaction(compaction);
  }

  @Test
  void aCommittedCompactionCannotBeUnscheduled() {
    Timeline timeline = HudiTable.createOrValidate(fs, base, settings).timeline();
    String compaction = timeline.newInstantTime(InstantIssuer.COMPACTION_PLANS);
    timeline.requestCompaction(compaction, new byte[0]);
    timeline.completeCompaction(compaction, List.of(), "{}");
    assertThatThrownBy(() -> timeline.unscheduleCompaction(compaction))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining(compaction);
  }

  /** Our commit metadata decodes to the same Avro record as Hudi's own serializer produces. */
  @Test
  void commitMetadataEqualsWhatHudiWritesForTheSameStats() throws Exception {
    Timeline timeline = HudiTable.createOrValidate(fs, base, settings).timeline();
    String instant = timeline.startInstant();
    timeline.complete(instant, List.of(STAT), "{\"type\":\"record\"}");
    FileStatus completed =
        fs.globStatus(new Path(base, ".hoodie/timeline/" + instant + "_*.deltacommit"))[0];

    HoodieCommitMetadata hudi = new HoodieCommitMetadata(false);
    HoodieDeltaWriteStat stat = new HoodieDeltaWriteStat();
    stat.setFileId(STAT.fileId());
    stat.setPath(STAT.relativePath());
    stat.setPrevCommit(instant);
    stat.setNumWrites(STAT.numWrites());
    stat.setNumInserts(STAT.numInserts());
    stat.setNumUpdateWrites(STAT.numUpdates());
    stat.setNumDeletes(STAT.numDeletes());
    stat.setTotalWriteBytes(STAT.sizeBytes());
    stat.setFileSizeInBytes(STAT.sizeBytes());
    stat.setTotalWriteErrors(0);
    stat.setLogVersion(STAT.logVersion());
    stat.setLogOffset(0);
    stat.setBaseFile("");
    stat.setLogFiles(new ArrayList<>(List.of(STAT.logFileName())));
    stat.setPartitionPath(STAT.partitionPath());
    stat.setTotalLogBlocks(STAT.numBlocks());
    HoodieWriteStat.RuntimeStats runtime = new HoodieWriteStat.RuntimeStats();
    runtime.setTotalUpsertTime(STAT.writeMillis());
    stat.setRuntimeStats(runtime);
    hudi.addWriteStat(STAT.partitionPath(), stat);
    hudi.addMetadata("schema", "{\"type\":\"record\"}");
    hudi.setOperationType(WriteOperationType.UPSERT);
    ByteArrayOutputStream hudiBytes = new ByteArrayOutputStream();
    new CommitMetadataSerDeV2().getInstantWriter(hudi).get().writeToStream(hudiBytes);

    try (InputStream ours = fs.open(completed.getPath())) {
      assertThat(decode(ours).toString())
          .isEqualTo(decode(new ByteArrayInputStream(hudiBytes.toByteArray())).toString());
    }
  }

  private static GenericRecord decode(InputStream in) throws Exception {
    try (DataFileStream<GenericRecord> stream =
        new DataFileStream<>(in, new GenericDatumReader<>())) {
      assertThat(stream.getMetaString("avro.codec")).as("no codec entry: uncompressed").isNull();
      GenericRecord record = stream.next();
      assertThat(stream.hasNext()).isFalse();
      return record;
    }
  }

  private Path touch(String relative) throws Exception {
    Path path = new Path(base, relative);
    fs.create(path, false).close();
    return path;
  }

  private List<String> names() throws Exception {
    List<String> names = new ArrayList<>();
    for (FileStatus status : fs.listStatus(new Path(base, ".hoodie/timeline"))) {
      names.add(status.getPath().getName());
    }
    return names;
  }
}
