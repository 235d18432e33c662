package dev.mortar.writer.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mortar.testing.HudiTableOracle;
import dev.mortar.testing.Seeds;
import dev.mortar.writer.OfflineCompaction;
import dev.mortar.writer.compaction.OfflineCompactionJob;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Jobs that plan compactions but leave them to others ({@code compaction.async.enabled} = false),
 * then {@link OfflineCompaction} executes the pending plans on the MiniCluster: afterwards none is
 * pending, every base file belongs to a compaction it committed, and Hudi's reader shows exactly
 * the latest row per key; a second job and a second offline run on the compacted table stay exact.
 * The jobs let the last write win: with event-time ordering, a delete compacted away leaves no
 * tombstone, so a second job's older change would revive its key or not depending on which plans
 * ran (see {@link Changelog#withoutStaleChangesAfterDeletes}), and no model of two jobs is exact.
 */
class OfflineCompactionITCase {
  private static final Logger LOG = LoggerFactory.getLogger(OfflineCompactionITCase.class);

  @RegisterExtension static final MiniClusterExtension MINI_CLUSTER = MiniClusters.withSlots(4);

  @TempDir Path dir;

  @Test
  void executesThePlansAWriterLeftPendingAndHudiReadsTheResult() throws Exception {
    long seed = Seeds.seed("OfflineCompactionITCase");
    LOG.info("seed {}", seed);
    SinkJob job =
        SinkJob.at(dir.resolve("t").toUri().toString())
            .parallelism(2)
            .partitioned(true)
            .buckets(2)
            .perCheckpoint(60)
            .compactEvery(2)
            .compactionInJob(false)
            .build();
    Changelog first = Changelog.random(seed, 800, 200, 100, 30).withoutStaleChangesAfterDeletes();
    Changelog second =
        Changelog.random(seed + 1, 400, 200, 100, 30).withoutStaleChangesAfterDeletes();
    Changelog both = first.followedBy(second);

    job.runDataStream(first);
    List<String> pendingAfterFirst = HudiClient.pendingCompactions(job.path());
    assertThat(pendingAfterFirst).as("plans left pending, seed %s", seed).isNotEmpty();

    Command command = Command.run("--path", job.path(), "--parallelism", "2", "--memory", "8mb");
    LOG.info("first offline run:\n{}{}", command.out, command.err);
    assertThat(command.exitCode).as("exit code, stderr: %s", command.err).isZero();
    for (String instant : pendingAfterFirst) {
      assertThat(command.out).contains("Committed compaction " + instant + ": ");
    }
    assertThat(command.out)
        .contains("Compacted " + job.path() + ": " + pendingAfterFirst.size() + " compaction(s)");
    assertThat(HudiClient.pendingCompactions(job.path())).as("pending, seed %s", seed).isEmpty();
    assertThat(baseFileInstants(job.path()))
        .as("instants of the base files, seed %s", seed)
        .isNotEmpty()
        .isSubsetOf(pendingAfterFirst);
    job.verify(first);

    job.runDataStream(second);
    List<String> pendingAfterSecond = HudiClient.pendingCompactions(job.path());
    assertThat(pendingAfterSecond).as("plans of the second job, seed %s", seed).isNotEmpty();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    OfflineCompactionJob.Summary summary =
        OfflineCompaction.compact(
            StreamExecutionEnvironment.getExecutionEnvironment(),
            job.path(),
            3,
            null,
            1,
            new PrintStream(out, true, StandardCharsets.UTF_8));
    LOG.info("second offline run:\n{}", out.toString(StandardCharsets.UTF_8));
    assertThat(summary.compactions()).isEqualTo(pendingAfterSecond.size());
    assertThat(summary.fileGroups()).isPositive();
    assertThat(summary.records()).isPositive();
    assertThat(HudiClient.pendingCompactions(job.path())).isEmpty();
    assertThat(HudiTableOracle.pendingInstants(job.path())).as("pending instants").isEmpty();
    job.verify(both);

    // Keeping what the latest commit needs, the run cleaned the slices its compactions superseded:
    // one base file per file group, and Hudi's own cleaner finds nothing more to delete.
    assertThat(summary.cleans()).as("cleans of the second run, seed %s", seed).isNotEmpty();
    assertThat(out.toString(StandardCharsets.UTF_8))
        .contains("Cleaned " + job.path() + ": clean(s) " + String.join(", ", summary.cleans()));
    assertThat(baseFilesPerFileGroup(job.path()))
        .as("base files per file group, seed %s", seed)
        .allSatisfy((group, files) -> assertThat(files).as(group).isEqualTo(1));
    assertThat(HudiClient.cleanKeepingCommits(job.path(), 1))
        .as("files Hudi's cleaner deletes after Mortar's, seed %s", seed)
        .isZero();
    job.verify(both);

    Command again = Command.run("--path", job.path());
    assertThat(again.exitCode).as("exit code, stderr: %s", again.err).isZero();
    assertThat(again.out).contains("No pending compaction in " + job.path());
  }

  @Test
  void aPathWithoutATableFailsNamingThePath() throws IOException {
    Path empty = Files.createDirectory(dir.resolve("empty"));
    String path = empty.toUri().toString();
    Command command = Command.run("--path", path);
    assertThat(command.exitCode).isEqualTo(1);
    assertThat(command.err)
        .contains("no Hudi table at file:" + empty)
        .contains(empty + "/.hoodie/hoodie.properties does not exist");
    assertThat(Files.list(empty)).as("nothing written into %s", path).isEmpty();
  }

  @Test
  void badArgumentsFailWithTheUsage() {
    Command missingPath = Command.run("--parallelism", "2");
    assertThat(missingPath.exitCode).isEqualTo(2);
    assertThat(missingPath.err).contains("'--path' (the table base path) is required", "usage:");
    Command badParallelism = Command.run("--path", "file:///tmp/x", "--parallelism", "0");
    assertThat(badParallelism.exitCode).isEqualTo(2);
    assertThat(badParallelism.err).contains("'--parallelism' must be a positive integer, got '0'");
  }

  /** The instants of the base files in the table's partitions. */
  private static List<String> baseFileInstants(String path) throws IOException {
    try (Stream<Path> files = Files.walk(Path.of(URI.create(path)))) {
      return files
          .map(file -> file.getFileName().toString())
          .filter(name -> name.endsWith(".parquet"))
          .map(
              name ->
                  name.substring(name.lastIndexOf('_') + 1, name.length() - ".parquet".length()))
          .distinct()
          .toList();
    }
  }

  /** The number of base files of each file group (partition and file id) in the table. */
  private static Map<String, Long> baseFilesPerFileGroup(String path) throws IOException {
    Path root = Path.of(URI.create(path));
    try (Stream<Path> files = Files.walk(root)) {
      return files
          .filter(file -> file.getFileName().toString().endsWith(".parquet"))
          .filter(file -> !root.relativize(file).startsWith(".hoodie"))
          .collect(
              Collectors.groupingBy(
                  file -> {
                    String name = file.getFileName().toString();
                    return root.relativize(file.getParent())
                        + "/"
                        + name.substring(0, name.indexOf('_'));
                  },
                  Collectors.counting()));
    }
  }

  /** One run of the command on the MiniCluster, with what it printed. */
  private record Command(int exitCode, String out, String err) {
    static Command run(String... args) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      ByteArrayOutputStream err = new ByteArrayOutputStream();
      int exitCode =
          OfflineCompaction.run(
              args,
              StreamExecutionEnvironment.getExecutionEnvironment(),
              new PrintStream(out, true, StandardCharsets.UTF_8),
              new PrintStream(err, true, StandardCharsets.UTF_8));
      return new Command(
          exitCode, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
  }
}
