package dev.mortar.writer.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mortar.testing.HudiTableOracle;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A savepoint taken by an earlier build of Mortar restores into this one. Each folder under {@code
 * src/test/resources/savepoints/} holds what a user has after stopping a job with a savepoint
 * mid-stream: the savepoint ({@code savepoint/}) and the table as it was then ({@code table/}). The
 * job restored from it with the same settings and input must finish with exactly the expected
 * table. What a savepoint pins: the operators' uids ({@code mortar-write}, {@code mortar-commit},
 * {@code mortar-end}, {@code mortar-assign}), the committer's state and its serializer's name and
 * format ({@code WriteResultSerializer}), and the file group each bucket maps to.
 *
 * <p>{@link #main} writes a new folder: run it from the build the folder is named after, and keep
 * the old folders, so every later build is tested against them.
 */
class SavepointCompatibilityITCase {
  private static final long SEED = 34;
  private static final int CHANGES = 2_000;
  private static final Changelog CHANGELOG = Changelog.random(SEED, CHANGES, 500, 100, 30);

  @RegisterExtension static final MiniClusterExtension MINI_CLUSTER = MiniClusters.withSlots(2);

  @TempDir Path dir;

  /** The job every savepoint folder was taken of, on the table at {@code tablePath}. */
  private static SinkJob job(Path tablePath) {
    return SinkJob.at(tablePath.toUri().toString())
        .parallelism(2)
        .partitioned(true)
        .ordering(true)
        .buckets(4)
        .perCheckpoint(200)
        .build();
  }

  static Stream<Arguments> savepoints() throws IOException, URISyntaxException {
    List<String> builds;
    try (Stream<Path> folders = Files.list(resources())) {
      builds = folders.map(folder -> folder.getFileName().toString()).sorted().toList();
    }
    return builds.stream()
        .flatMap(build -> Stream.of(Arguments.of(build, false), Arguments.of(build, true)));
  }

  private static Path resources() throws URISyntaxException {
    return Path.of(SavepointCompatibilityITCase.class.getResource("/savepoints").toURI());
  }

  /**
   * With {@code commitFileLost}, the newest commit file is deleted before the restore, as when the
   * job died after the savepoint completed and before its commit was published: the restored
   * committer must publish it again from the savepoint's state, or the rows it holds are lost.
   */
  @ParameterizedTest(name = "savepoint of {0}, newest commit file lost: {1}")
  @MethodSource("savepoints")
  void aSavepointOfAnEarlierBuildRestores(String build, boolean commitFileLost) throws Exception {
    Path fixture = resources().resolve(build);
    Path table = dir.resolve("t");
    copyTree(fixture.resolve("table"), table);
    SinkJob job = job(table);
    List<String> committedBefore = HudiTableOracle.completedInstants(job.path());
    if (commitFileLost) {
      deleteCommitFile(table, committedBefore.get(committedBefore.size() - 1));
    }
    StreamExecutionEnvironment env = job.environment();
    job.addDataStream(env, CHANGELOG);
    Restores.submit(env, "restore a savepoint of " + build, fixture.resolve("savepoint").toString())
        .getJobExecutionResult()
        .get(3, TimeUnit.MINUTES);
    assertThat(HudiTableOracle.completedInstants(job.path()))
        .containsAll(committedBefore)
        .hasSizeGreaterThan(committedBefore.size());
    job.verify(CHANGELOG);
    job.verifyNothingUncommittedLeft();
    job.verifyOneFileGroupPerBucket();
  }

  private static void deleteCommitFile(Path table, String instant) throws IOException {
    Path timeline = table.resolve(".hoodie/timeline");
    try (Stream<Path> files = Files.list(timeline)) {
      for (Path file : files.toList()) {
        String name = file.getFileName().toString();
        if (name.matches("\\.?" + instant + "_\\d+\\.deltacommit(\\.crc)?")) {
          Files.delete(file);
        }
      }
    }
    assertThat(HudiTableOracle.completedInstants(table.toUri().toString())).doesNotContain(instant);
  }

  /**
   * Writes {@code args[0]}/savepoint and {@code args[0]}/table: runs the job until the table has
   * two commits, then stops it with a savepoint.
   */
  public static void main(String[] args) throws Exception {
    Path folder = Path.of(args[0]).toAbsolutePath();
    Path work = Files.createTempDirectory("mortar-savepoint");
    SinkJob job = job(work.resolve("t"));
    StreamExecutionEnvironment env =
        job.configured(StreamExecutionEnvironment.getExecutionEnvironment(new Configuration()));
    job.addDataStream(env, CHANGELOG);
    JobClient client = Restores.submit(env, "write a savepoint", null);
    while (Restores.completedCommits(job.path()) < 2) {
      Thread.sleep(20);
    }
    String savepoint =
        client
            .stopWithSavepoint(
                false, work.resolve("savepoints").toUri().toString(), SavepointFormatType.CANONICAL)
            .get(3, TimeUnit.MINUTES);
    copyTree(Path.of(java.net.URI.create(savepoint)), folder.resolve("savepoint"));
    copyTree(work.resolve("t"), folder.resolve("table"));
    System.out.println("wrote " + folder);
    System.exit(0);
  }

  private static void copyTree(Path from, Path to) throws IOException {
    List<Path> files;
    try (Stream<Path> walk = Files.walk(from)) {
      files = walk.toList();
    }
    for (Path file : files) {
      Path target = to.resolve(from.relativize(file).toString());
      if (Files.isDirectory(file)) {
        Files.createDirectories(target);
      } else {
        Files.copy(file, target, StandardCopyOption.COPY_ATTRIBUTES);
      }
    }
  }
}
