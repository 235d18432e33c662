package dev.mortar.writer.compaction;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mortar.writer.archive.ArchivalPolicy;
import dev.mortar.writer.archive.TimelineArchiver;
import dev.mortar.writer.options.WriterOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * File slicing on a timeline folder after a run of the archiver: delta commit 100 was still running
 * when compaction 105 was requested (it completed at 110), and the archiver moved both. The log of
 * 100 belongs to compaction 105's slice, which only the archive's completion time tells.
 */
class ArchivedSlicingTest {
  private static final FileGroupId GROUP = new FileGroupId("", "gggg");

  @TempDir Path dir;

  private static String t(int millis) {
    return String.format("20261126120000%03d", millis);
  }

  @Test
  void aLogOfAnArchivedDeltaCommitJoinsTheSliceOfTheArchivedCompactionItOverlapped()
      throws Exception {
    Path timeline = Files.createDirectories(dir.resolve(".hoodie/timeline"));
    Path temp = Files.createDirectories(dir.resolve(".hoodie/.temp"));
    deltaCommit(timeline, 100, 110);
    compaction(timeline, 105, 120);
    deltaCommit(timeline, 130, 131);
    deltaCommit(timeline, 140, 141);
    deltaCommit(timeline, 150, 151);
    compaction(timeline, 165, 166);
    FileSystem fs = FileSystem.getLocal(new Configuration());
    TimelineArchiver archiver =
        new TimelineArchiver(
            fs,
            hadoopPath(timeline),
            hadoopPath(temp),
            new ArchivalPolicy(2, 4, WriterOptions.ARCHIVE_MERGE_BATCH.defaultValue()),
            publishing -> {});
    assertThat(archiver.run().archived()).as("100, 105, 130 and 140").isEqualTo(4);
    FileGroupFiles files = FileGroupFiles.empty();
    files.baseFiles().add(BaseFile.parse("gggg_0-0-0_" + t(105) + ".parquet", 1000).orElseThrow());
    files.logFiles().add(LogFile.parse(log(100), 100).orElseThrow());
    files.logFiles().add(LogFile.parse(log(150), 100).orElseThrow());

    List<FileSlice> slices =
        FileSlicing.slices(
            GROUP, files, TimelineSnapshot.read(fs, hadoopPath(timeline)), List.of());

    assertThat(slices).singleElement().extracting(FileSlice::baseInstant).isEqualTo(t(105));
    assertThat(slices.get(0).logFiles())
        .extracting(LogFile::name)
        .containsExactlyInAnyOrder(log(100), log(150));
  }

  private static String log(int deltaCommit) {
    return ".gggg_" + t(deltaCommit) + ".log.1_0-1-0";
  }

  private static void deltaCommit(Path timeline, int requested, int completed) throws Exception {
    Files.createFile(timeline.resolve(t(requested) + ".deltacommit.requested"));
    Files.createFile(timeline.resolve(t(requested) + ".deltacommit.inflight"));
    Files.writeString(
        timeline.resolve(t(requested) + "_" + t(completed) + ".deltacommit"), "metadata");
  }

  private static void compaction(Path timeline, int requested, int completed) throws Exception {
    Files.writeString(timeline.resolve(t(requested) + ".compaction.requested"), "plan");
    Files.createFile(timeline.resolve(t(requested) + ".compaction.inflight"));
    Files.writeString(timeline.resolve(t(requested) + "_" + t(completed) + ".commit"), "metadata");
  }

  private static org.apache.hadoop.fs.Path hadoopPath(Path path) {
    return new org.apache.hadoop.fs.Path(path.toUri());
  }
}
