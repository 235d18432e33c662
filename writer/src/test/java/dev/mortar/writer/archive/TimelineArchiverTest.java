package dev.mortar.writer.archive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mortar.writer.options.WriterOptions;
import dev.mortar.writer.table.Timeline;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.avro.generic.GenericRecord;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.runtime.metrics.util.InterceptingOperatorMetricGroup;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FilterFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.avro.AvroParquetReader;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The archiver on a hand-made timeline: the data file holds the instants' files as Hudi's records,
 * the snapshot files are Hudi's, the archived instants' completion times are read back, a run that
 * died after publishing is finished by the next, and the service's metrics count what runs did.
 */
class TimelineArchiverTest {
  @TempDir java.nio.file.Path dir;

  private java.nio.file.Path timeline;

  private void writeTimeline() throws IOException {
    timeline = Files.createDirectories(dir.resolve(".hoodie/timeline"));
    Files.createDirectories(dir.resolve(".hoodie/.temp"));
    for (int t = 100; t < 160; t += 10) {
      Files.write(timeline.resolve(t + ".deltacommit.requested"), new byte[0]);
      Files.write(timeline.resolve(t + ".deltacommit.inflight"), new byte[0]);
      Files.writeString(timeline.resolve(t + "_" + (t + 1) + ".deltacommit"), "metadata " + t);
    }
    Files.writeString(timeline.resolve("125.compaction.requested"), "plan 125");
    Files.write(timeline.resolve("125.compaction.inflight"), new byte[0]);
    Files.writeString(timeline.resolve("125_127.commit"), "metadata 125");
    Files.writeString(timeline.resolve("165.compaction.requested"), "plan 165");
    Files.writeString(timeline.resolve("165_166.commit"), "metadata 165");
  }

  private TimelineArchiver archiver(FileSystem fs) {
    return archiver(fs, publishing -> {});
  }

  private TimelineArchiver archiver(FileSystem fs, Timeline.Fence fence) {
    return new TimelineArchiver(
        fs,
        new Path(timeline.toUri()),
        new Path(dir.resolve(".hoodie/.temp").toUri()),
        new ArchivalPolicy(2, 4, WriterOptions.ARCHIVE_MERGE_BATCH.defaultValue()),
        fence);
  }

  private List<String> timelineFiles() throws IOException {
    try (Stream<java.nio.file.Path> files = Files.list(timeline)) {
      return files
          .map(f -> f.getFileName().toString())
          .filter(n -> Character.isDigit(n.charAt(0)))
          .sorted()
          .toList();
    }
  }

  @Test
  void aWriterThatLostTheLeaseArchivesNothing() throws Exception {
    writeTimeline();
    List<String> before = timelineFiles();
    List<String> checked = new ArrayList<>();
    Timeline.Fence lost =
        publishing -> {
          checked.add(publishing);
          throw new IllegalStateException("lease taken by another writer");
        };

    assertThatThrownBy(() -> archiver(FileSystem.getLocal(new Configuration()), lost).run())
        .hasMessage("lease taken by another writer");

    assertThat(checked).containsExactly(TimelineArchiver.INTENT);
    assertThat(timelineFiles()).isEqualTo(before);
    assertThat(timeline.resolve("history")).doesNotExist();
    assertThat(dir.resolve(".hoodie/.temp").resolve(TimelineArchiver.INTENT)).doesNotExist();
  }

  @Test
  void aWriterThatLosesTheLeaseWhileArchivingPublishesNoSnapshot() throws Exception {
    writeTimeline();
    List<String> before = timelineFiles();
    Timeline.Fence lostAfterStart =
        publishing -> {
          if (!publishing.equals(TimelineArchiver.INTENT)) {
            throw new IllegalStateException("lease taken before publishing " + publishing);
          }
        };

    assertThatThrownBy(
            () -> archiver(FileSystem.getLocal(new Configuration()), lostAfterStart).run())
        .hasMessage("lease taken before publishing 100_140_0.parquet");

    assertThat(timelineFiles()).as("nothing archived").isEqualTo(before);
    assertThat(timeline.resolve("history")).isDirectoryNotContaining("glob:**manifest_*");
  }

  @Test
  void writesHudisLayoutAndDeletesTheArchivedFiles() throws Exception {
    writeTimeline();
    TimelineArchiver.ArchivalRun run = archiver(FileSystem.getLocal(new Configuration())).run();
    assertThat(run.archived()).isEqualTo(6);
    assertThat(run.activeInstants()).as("150 and 165 stay").isEqualTo(2);
    assertThat(run.archiveFiles()).isEqualTo(1);
    assertThat(timelineFiles())
        .containsExactly(
            "150.deltacommit.inflight",
            "150.deltacommit.requested",
            "150_151.deltacommit",
            "165.compaction.requested",
            "165_166.commit");
    java.nio.file.Path history = timeline.resolve("history");
    assertThat(Files.readString(history.resolve("_version_"))).isEqualTo("1");
    long length = Files.size(history.resolve("100_140_0.parquet"));
    assertThat(Files.readString(history.resolve("manifest_1")))
        .isEqualTo(
            "{\n  \"files\" : [ {\n    \"fileName\" : \"100_140_0.parquet\",\n    \"fileLen\" : "
                + length
                + "\n  } ]\n}");
    List<String> records = new ArrayList<>();
    try (ParquetReader<GenericRecord> reader =
        AvroParquetReader.<GenericRecord>builder(
                HadoopInputFile.fromPath(
                    new Path(history.resolve("100_140_0.parquet").toUri()), new Configuration()))
            .build()) {
      for (GenericRecord r = reader.read(); r != null; r = reader.read()) {
        records.add(
            r.get("instantTime")
                + " "
                + r.get("completionTime")
                + " "
                + r.get("action")
                + " "
                + text(r.get("metadata"))
                + " "
                + text(r.get("plan"))
                + " "
                + r.get("version"));
      }
    }
    assertThat(records)
        .containsExactly(
            "100 101 deltacommit metadata 100 null 1",
            "110 111 deltacommit metadata 110 null 1",
            "120 121 deltacommit metadata 120 null 1",
            "125 127 commit metadata 125 plan 125 1",
            "130 131 deltacommit metadata 130 null 1",
            "140 141 deltacommit metadata 140 null 1");
  }

  @Test
  void theCompletionTimesOfArchivedInstantsAreReadFromTheArchive() throws Exception {
    writeTimeline();
    FileSystem fs = FileSystem.getLocal(new Configuration());
    archiver(fs).run();

    ArchivedCompletionTimes times = ArchivedCompletionTimes.of(fs, new Path(timeline.toUri()));
    assertThat(times.completionOf("120")).isEqualTo("121");
    assertThat(times.completionOf("125")).as("a compaction").isEqualTo("127");
    assertThat(times.completionOf("140")).isEqualTo("141");
    assertThat(times.completionOf("150")).as("still active").isNull();
    assertThat(times.completionOf("099")).as("before the archive").isNull();
  }

  @Test
  void aRunThatDiedAfterPublishingIsFinishedByTheNext() throws Exception {
    writeTimeline();
    FileSystem local = FileSystem.getLocal(new Configuration());
    FileSystem failingDeletes =
        new FilterFileSystem(local) {
          @Override
          public boolean delete(Path f, boolean recursive) throws IOException {
            if (f.getName().endsWith(".deltacommit") && f.getName().contains("_")) {
              throw new IOException("injected: process died deleting " + f.getName());
            }
            return super.delete(f, recursive);
          }
        };
    assertThatThrownBy(() -> archiver(failingDeletes).run()).hasMessageContaining("injected");
    assertThat(timelineFiles()).contains("100_101.deltacommit");
    assertThat(Files.exists(dir.resolve(".hoodie/.temp/" + TimelineArchiver.INTENT))).isTrue();

    assertThat(archiver(local).run().archived()).as("nothing is archived twice").isZero();
    assertThat(timelineFiles()).doesNotContain("100_101.deltacommit", "140_141.deltacommit");
    assertThat(timelineFiles()).contains("150_151.deltacommit");
    assertThat(Files.readString(timeline.resolve("history/_version_"))).isEqualTo("1");
    assertThat(Files.exists(dir.resolve(".hoodie/.temp/" + TimelineArchiver.INTENT))).isFalse();
  }

  @Test
  void theServiceCountsArchivedAndActiveInstantsInItsMetrics() throws Exception {
    writeTimeline();
    InterceptingOperatorMetricGroup operatorGroup =
        new InterceptingOperatorMetricGroup() {
          @Override
          public MetricGroup addGroup(String name) {
            return name.equals("mortar") ? this : super.addGroup(name);
          }
        };
    ArchivalService service =
        new ArchivalService(archiver(FileSystem.getLocal(new Configuration())), operatorGroup);
    assertThat(((Gauge<?>) operatorGroup.get("activeTimelineInstants")).getValue())
        .as("before a run")
        .isEqualTo(-1);
    service.afterCommit();
    service.close();
    assertThat(((Counter) operatorGroup.get("archivedInstants")).getCount()).isEqualTo(6);
    assertThat(((Gauge<?>) operatorGroup.get("activeTimelineInstants")).getValue()).isEqualTo(2);
    assertThat(((Gauge<?>) operatorGroup.get("archiveFiles")).getValue()).isEqualTo(1);
  }

  private static String text(Object bytes) {
    if (bytes == null) {
      return "null";
    }
    java.nio.ByteBuffer buffer = (java.nio.ByteBuffer) bytes;
    byte[] copy = new byte[buffer.remaining()];
    buffer.get(copy);
    return new String(copy, StandardCharsets.UTF_8);
  }
}
