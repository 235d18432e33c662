package dev.mortar.writer.archive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mortar.writer.options.WriterOptions;
import dev.mortar.writer.table.HudiTable;
import dev.mortar.writer.table.TableSettings;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FilterFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.util.Progressable;
import org.apache.hudi.common.table.HoodieTableMetaClient;
import org.apache.hudi.common.table.timeline.HoodieArchivedTimeline;
import org.apache.hudi.common.table.timeline.HoodieInstant;
import org.apache.hudi.hadoop.fs.HadoopFSUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Many archival runs on a table's timeline, judged by Hudi 1.1.1: {@code history/} stays
 * logarithmic in the runs, Hudi's archived timeline lists every archived instant with its
 * completion time and content after the merges, and a crash at any file-system step of the runs
 * that merge and clean leaves an archive Hudi reads, which the next runs settle into what a run
 * without the crash leaves.
 */
class ArchiveCompactionTest {
  private static final Logger LOG = LoggerFactory.getLogger(ArchiveCompactionTest.class);
  private static final TableSettings SETTINGS =
      new TableSettings(
          "t",
          RowType.of(
              new LogicalType[] {new VarCharType(false, 20), new BigIntType(false)},
              new String[] {"id", "ts"}),
          List.of("id"),
          List.of(),
          "ts");

  /** Files merged at once in the crash test: a merge every other run, cascading. */
  private static final int CRASH_TEST_BATCH = 2;

  /**
   * Rounds of the crash test: 4 runs archive; runs 2 and 4 merge (4 into layer 2 too), the cleans
   * of runs 3 and 4 delete a snapshot each, run 4's the files merged in run 2.
   */
  private static final int CRASH_TEST_ROUNDS = 5;

  @TempDir java.nio.file.Path dir;

  private final FileSystem local = local();

  @Test
  void historyStaysLogarithmicAndHudiReadsEveryArchivedInstant() throws Exception {
    int batch = 3;
    TestTable table = new TestTable(dir.resolve("t"), batch);
    int runsThatArchived = 0;
    int mostDataFiles = 0;
    for (int round = 0; round <= 40; round++) {
      table.round();
      TimelineArchiver.ArchivalRun run = table.archiver(local).run();
      if (run.archived() > 0) {
        runsThatArchived++;
      }
      assertThat(run.archiveFiles())
          .as("files of the latest snapshot after %s runs that archived", runsThatArchived)
          .isEqualTo(digitSum(runsThatArchived, batch));
      assertThat(run.activeInstants()).as("instants left active").isBetween(2, 3);
      mostDataFiles = Math.max(mostDataFiles, table.assertEveryDataFileIsInASnapshot());
    }
    LOG.info(
        "{} runs archived; at most {} data files in history/; latest snapshot {}",
        runsThatArchived,
        mostDataFiles,
        table.latestSnapshot());
    assertThat(runsThatArchived).isEqualTo(40);
    assertThat(table.latestSnapshot())
        .as("40 runs, 1111 in base 3: one file of each layer")
        .extracting(name -> ArchiveFileName.parse(name).layer())
        .containsExactly(3, 2, 1, 0);
    assertThat(mostDataFiles)
        .as("data files on disk: the latest snapshot's and the merged ones of retained snapshots")
        .isLessThanOrEqualTo(4 * batch);
    assertThat(table.assertEachInstantArchivedOnce()).hasSize(3 * 40 + 1);
  }

  @Test
  void aCrashAtAnyStepInHistoryLeavesAnArchiveHudiReadsAndTheNextRunsSettleIt() throws Exception {
    TestTable reference = new TestTable(dir.resolve("reference"), CRASH_TEST_BATCH);
    List<TestTable> beforeRun = new ArrayList<>();
    List<Set<String>> afterRun = new ArrayList<>();
    for (int round = 0; round <= CRASH_TEST_ROUNDS; round++) {
      reference.round();
      beforeRun.add(reference.copyTo(dir.resolve("before-" + round)));
      reference.archiver(local).run();
      afterRun.add(reference.latestSnapshot());
    }
    assertThat(afterRun.get(CRASH_TEST_ROUNDS - 1))
        .extracting(name -> ArchiveFileName.parse(name).layer())
        .as("the runs merge into layer 2")
        .contains(2);

    int crashes = 0;
    for (int round = 0; round < CRASH_TEST_ROUNDS; round++) {
      for (int step = 1; ; step++) {
        TestTable table = beforeRun.get(round).copyTo(dir.resolve("crash-" + round + "-" + step));
        DyingFileSystem dying = new DyingFileSystem(local, table.historyDir(), step);
        try {
          table.archiver(dying).run();
        } catch (IOException | RuntimeException died) {
          assertThat(died).hasStackTraceContaining("injected");
        }
        if (!dying.died()) {
          break;
        }
        crashes++;
        String crash = "run " + round + ", step " + step;
        LOG.info("{}: {}", crash, dying.diedAt);
        table.assertHudiReadsEveryInstant();
        table.archiver(local).run();
        table.round();
        table.archiver(local).run();
        assertThat(table.latestSnapshot())
            .as("a round after a crash at %s", crash)
            .isEqualTo(afterRun.get(round + 1));
        table.assertEveryDataFileIsInASnapshot();
        table.assertEachInstantArchivedOnce();
        assertThat(Files.exists(table.intent())).as("intent after %s", crash).isFalse();
      }
    }
    LOG.info("crashed at each of {} steps in history/", crashes);
    assertThat(crashes).as("steps in history/ of %s rounds", CRASH_TEST_ROUNDS).isGreaterThan(40);
  }

  @Test
  void aMergeNeverOverwritesAFileTheSnapshotLists() throws Exception {
    TestTable table =
        new TestTable(dir.resolve("t"), WriterOptions.ARCHIVE_MERGE_BATCH.defaultValue());
    for (int round = 0; round < 3; round++) {
      table.round();
      table.archiver(local).run();
    }
    Path history = table.historyDir();
    ArchiveManifest manifest = ArchiveManifest.latest(local, history);
    List<ArchiveFileName> layer0 =
        manifest.files().stream().map(f -> ArchiveFileName.parse(f.fileName())).toList();
    assertThat(layer0).hasSize(2);
    String merged = ArchiveFileName.merged(layer0).toString();
    Files.copy(table.history().resolve(layer0.get(0).toString()), table.history().resolve(merged));
    manifest.publishWith(
        local,
        history,
        new ArchiveManifest.Entry(merged, Files.size(table.history().resolve(merged))));
    assertThatThrownBy(() -> new ArchiveCompactor(local, history, 2).compact())
        .hasMessageContaining("cannot merge")
        .hasMessageContaining(merged)
        .hasMessageContaining("lists that file already");
  }

  /** The files of the latest snapshot after {@code runs} runs that archived: a digit sum. */
  private static int digitSum(int runs, int batch) {
    int sum = 0;
    for (int rest = runs; rest > 0; rest /= batch) {
      sum += rest % batch;
    }
    return sum;
  }

  private static FileSystem local() {
    try {
      return FileSystem.getLocal(new Configuration());
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /**
   * A Mortar table whose timeline the test writes by hand: each round two delta commits and a
   * compaction, each instant's completed file holding {@code metadata <T>}, a compaction's plan
   * {@code plan <T>}.
   */
  private final class TestTable {
    private final java.nio.file.Path base;
    private final java.nio.file.Path timeline;
    private final Map<String, String> completions = new TreeMap<>();
    private final Map<String, String> actions = new TreeMap<>();
    private final int mergeBatch;
    private long next = 20260101000000000L;

    TestTable(java.nio.file.Path base, int mergeBatch) {
      this.base = base;
      this.mergeBatch = mergeBatch;
      HudiTable.createOrValidate(local, new Path(base.toUri()), SETTINGS);
      this.timeline = base.resolve(".hoodie/timeline");
    }

    /**
     * A copy of this table's files and of what the test knows of its instants at {@code target}.
     */
    TestTable copyTo(java.nio.file.Path target) throws IOException {
      try (Stream<java.nio.file.Path> files = Files.walk(base)) {
        for (java.nio.file.Path file : files.toList()) {
          Files.copy(file, target.resolve(base.relativize(file).toString()));
        }
      }
      TestTable copy = new TestTable(target, mergeBatch);
      copy.completions.putAll(completions);
      copy.actions.putAll(actions);
      copy.next = next;
      return copy;
    }

    void round() throws IOException {
      complete(ActiveInstant.DELTA_COMMIT, "deltacommit");
      complete(ActiveInstant.DELTA_COMMIT, "deltacommit");
      complete(ActiveInstant.COMMIT, "compaction");
    }

    private void complete(String action, String pendingAction) throws IOException {
      String requested = String.valueOf(next);
      String completion = String.valueOf(next + 5);
      next += 10;
      String plan = action.equals(ActiveInstant.COMMIT) ? "plan " + requested : "";
      Files.writeString(timeline.resolve(requested + "." + pendingAction + ".requested"), plan);
      Files.write(timeline.resolve(requested + "." + pendingAction + ".inflight"), new byte[0]);
      Files.writeString(
          timeline.resolve(requested + "_" + completion + "." + action), "metadata " + requested);
      completions.put(requested, completion);
      actions.put(requested, action);
    }

    TimelineArchiver archiver(FileSystem fs) {
      return new TimelineArchiver(
          fs,
          new Path(timeline.toUri()),
          new Path(base.resolve(".hoodie/.temp").toUri()),
          new ArchivalPolicy(2, 4, mergeBatch),
          publishing -> {});
    }

    java.nio.file.Path history() {
      return timeline.resolve("history");
    }

    Path historyDir() {
      return new Path(history().toUri());
    }

    java.nio.file.Path intent() {
      return base.resolve(".hoodie/.temp/" + TimelineArchiver.INTENT);
    }

    Set<String> latestSnapshot() throws IOException {
      Set<String> names = new TreeSet<>();
      ArchiveManifest.latest(local, historyDir()).files().forEach(f -> names.add(f.fileName()));
      return names;
    }

    /**
     * Asserts the data files in {@code history/} are exactly those the snapshots there list;
     * returns how many there are.
     */
    int assertEveryDataFileIsInASnapshot() throws IOException {
      Set<String> listed = new TreeSet<>();
      for (int version : ArchiveManifest.versions(local, historyDir())) {
        ArchiveManifest.read(local, historyDir(), version)
            .files()
            .forEach(f -> listed.add(f.fileName()));
      }
      Set<String> onDisk = new TreeSet<>();
      try (Stream<java.nio.file.Path> files = Files.list(history())) {
        files
            .map(f -> f.getFileName().toString())
            .filter(n -> n.endsWith(".parquet") && !n.startsWith("."))
            .forEach(onDisk::add);
      }
      assertThat(onDisk).as("data files in %s", history()).isEqualTo(listed);
      int highestLayer =
          latestSnapshot().stream().mapToInt(n -> ArchiveFileName.parse(n).layer()).max().orElse(0);
      assertThat(ArchiveManifest.versions(local, historyDir()))
          .as("snapshots kept: Hudi's 3 and one per layer merged in the last run")
          .hasSizeLessThanOrEqualTo(ArchiveCleaner.RETAINED_VERSIONS + highestLayer);
      return onDisk.size();
    }

    /**
     * Asserts that Hudi's timelines, active and archived, hold every completed instant, the
     * archived ones with their completion time, action and content; returns the archived ones.
     */
    List<String> assertHudiReadsEveryInstant() throws IOException {
      HoodieTableMetaClient metaClient =
          HoodieTableMetaClient.builder()
              .setConf(HadoopFSUtils.getStorageConf(new Configuration()))
              .setBasePath(base.toString())
              .build();
      Set<String> seen = new HashSet<>();
      metaClient
          .getActiveTimeline()
          .filterCompletedInstants()
          .getInstants()
          .forEach(i -> seen.add(i.requestedTime()));
      HoodieArchivedTimeline archived = metaClient.getArchivedTimeline();
      archived.loadCompletedInstantDetailsInMemory();
      List<String> archivedTimes = new ArrayList<>();
      for (HoodieInstant instant : archived.getInstants()) {
        String requested = instant.requestedTime();
        assertThat(instant.isCompleted()).as("%s completed", instant).isTrue();
        assertThat(instant.getCompletionTime())
            .as("completion of %s", instant)
            .isEqualTo(completions.get(requested));
        assertThat(instant.getAction())
            .as("action of %s", instant)
            .isEqualTo(actions.get(requested));
        try (var content = archived.getInstantContentStream(instant)) {
          assertThat(new String(content.readAllBytes(), StandardCharsets.UTF_8))
              .as("content of %s", instant)
              .isEqualTo("metadata " + requested);
        }
        archivedTimes.add(requested);
        seen.add(requested);
      }
      assertThat(seen).as("instants active or archived").isEqualTo(completions.keySet());
      return archivedTimes;
    }

    /**
     * Asserts that the latest snapshot's files hold each archived instant once, each file in
     * requested-time order, a compaction with its plan, and that Hudi reads them; returns them.
     */
    List<String> assertEachInstantArchivedOnce() throws IOException {
      List<String> times = new ArrayList<>();
      for (String name : latestSnapshot()) {
        List<String> inFile = new ArrayList<>();
        for (ArchivedInstant record : ArchiveFile.read(local, new Path(historyDir(), name))) {
          inFile.add(record.instantTime());
          String plan =
              record.plan() == null ? null : new String(record.plan(), StandardCharsets.UTF_8);
          assertThat(plan)
              .as("plan of %s", record.instantTime())
              .isEqualTo(
                  record.action().equals(ActiveInstant.COMMIT)
                      ? "plan " + record.instantTime()
                      : null);
        }
        assertThat(inFile).as("records of %s", name).isSorted();
        times.addAll(inFile);
      }
      assertThat(times).as("archived instants").doesNotHaveDuplicates();
      assertThat(new TreeSet<>(times)).isEqualTo(new TreeSet<>(assertHudiReadsEveryInstant()));
      return times;
    }
  }

  /**
   * The local file system, dying at its n-th create or delete in a folder (history/; the steps in
   * the active timeline are {@link TimelineArchiverTest}'s). A create it dies at leaves the file
   * empty, as a process killed while writing it would.
   */
  private static final class DyingFileSystem extends FilterFileSystem {
    private final String folder;
    private final int dieAt;
    private int steps;
    private String diedAt;

    DyingFileSystem(FileSystem local, Path folder, int dieAt) {
      super(local);
      this.folder = folder.toString();
      this.dieAt = dieAt;
    }

    boolean died() {
      return steps >= dieAt;
    }

    private boolean diesAtNext(Path path) {
      return path.toString().startsWith(folder) && steps + 1 == dieAt;
    }

    private void step(String what, Path path) throws IOException {
      if (path.toString().startsWith(folder) && ++steps == dieAt) {
        diedAt = what + " " + path.getName();
        throw new IOException("injected: died at step " + steps + ", " + what + " " + path);
      }
    }

    @Override
    public FSDataOutputStream create(
        Path f,
        FsPermission permission,
        boolean overwrite,
        int bufferSize,
        short replication,
        long blockSize,
        Progressable progress)
        throws IOException {
      if (diesAtNext(f)) {
        super.create(f, permission, overwrite, bufferSize, replication, blockSize, progress)
            .close();
      }
      step("create", f);
      return super.create(f, permission, overwrite, bufferSize, replication, blockSize, progress);
    }

    @Override
    public boolean delete(Path f, boolean recursive) throws IOException {
      step("delete", f);
      return super.delete(f, recursive);
    }
  }
}
