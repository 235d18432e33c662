package dev.mortar.bundle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mortar.testing.HudiTableOracle;
import dev.mortar.writer.it.StandaloneFlinkCluster;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Mortar deployed as users deploy it, on each Flink release it supports: the release's bundle jar
 * (the 2.2 bundle on Flink 2.0 and 2.1) next to that release's installation (Flink's own jars) and
 * a Hadoop client on the class path of a standalone session cluster (JobManager and TaskManager in
 * their own JVMs) and of a SQL Gateway in front of it, nothing of the test's class path. The SQL a
 * user would type into the SQL client goes over the gateway's REST API: a bounded DataGen table, a
 * {@code 'connector' = 'mortar'} table writing Parquet blocks and an INSERT with checkpoints on.
 * The job must commit over several checkpoints, compact (Parquet base files), and leave a table in
 * which Hudi's reader finds every generated key once.
 */
class SqlGatewayITCase {
  private static final Logger LOG = LoggerFactory.getLogger(SqlGatewayITCase.class);
  private static final int ROWS = 20_000;
  private static final Pattern JOB_STATE = Pattern.compile("\"state\"\\s*:\\s*\"(\\w+)\"");

  @TempDir Path dir;

  @ParameterizedTest
  @EnumSource(FlinkRelease.class)
  void insertThroughTheGatewayWritesATableHudiReads(FlinkRelease release) throws Exception {
    writeThroughTheGateway(release, release.bundleJar().toString());
  }

  /**
   * Another connector's older, unrelocated Avro and Parquet come first on the class path. Run on
   * one release only: every bundle holds the same relocated classes, and which Avro and Parquet the
   * bundle's classes bind to does not depend on the Flink line.
   */
  @Test
  void otherAvroAndParquetOnTheClassPathChangeNothing() throws Exception {
    FlinkRelease release = FlinkRelease.FLINK_1_20;
    Path jars = Path.of(System.getProperty("mortar.other-avro-and-parquet"));
    try (Stream<Path> files = Files.list(jars)) {
      String others =
          files.map(Path::toString).sorted().collect(Collectors.joining(File.pathSeparator));
      writeThroughTheGateway(release, others + File.pathSeparator + release.bundleJar());
    }
  }

  /**
   * Runs the SQL job on {@code release}'s installation whose class path ends with {@code userJars}.
   */
  private void writeThroughTheGateway(FlinkRelease release, String userJars) throws Exception {
    String path = dir.resolve("t").toUri().toString();
    String classPath = release.installationClassPath() + File.pathSeparator + userJars;
    try (StandaloneFlinkCluster cluster =
            new StandaloneFlinkCluster(dir.resolve("cluster"), 2, classPath);
        SqlGatewayProcess gateway =
            new SqlGatewayProcess(
                dir.resolve("gateway"),
                cluster,
                classPath + File.pathSeparator + release.gatewayClassPath())) {
      cluster.startTaskManager();
      SqlGatewayProcess.Session session = gateway.openSession();
      session.execute("SET 'execution.checkpointing.interval' = '1s'");
      session.execute("SET 'parallelism.default' = '2'");
      session.execute(
          "CREATE TABLE source (id BIGINT, name STRING, price DOUBLE) WITH ("
              + " 'connector' = 'datagen', 'rows-per-second' = '2500',"
              + " 'fields.id.kind' = 'sequence', 'fields.id.start' = '1',"
              + " 'fields.id.end' = '"
              + ROWS
              + "')");
      session.execute(
          "CREATE TABLE orders (id BIGINT, name STRING, price DOUBLE,"
              + " PRIMARY KEY (id) NOT ENFORCED) WITH ("
              + " 'connector' = 'mortar', 'path' = '"
              + path
              + "', 'log.block.format' = 'parquet', 'compaction.delta-commits' = '2')");
      String jobId =
          session.execute("INSERT INTO orders SELECT * FROM source").get(0).get(0).asText();
      awaitFinished(cluster, gateway, jobId);
      LOG.info("{}: job {} finished: {}", release, jobId, checkpointCounts(cluster, jobId));
    }
    assertThat(HudiTableOracle.completedInstants(path))
        .as("delta commits of a job over several checkpoints")
        .hasSizeGreaterThanOrEqualTo(2);
    try (Stream<Path> files = Files.walk(dir.resolve("t"))) {
      assertThat(files.map(Path::toString))
          .as("Parquet base files of the compactions the job ran")
          .anyMatch(name -> name.endsWith(".parquet") && !name.contains(".hoodie"));
    }
    assertThat(HudiTableOracle.latestPerKey(path).keySet())
        .as("record keys Hudi's reader finds")
        .isEqualTo(
            LongStream.rangeClosed(1, ROWS).mapToObj(Long::toString).collect(Collectors.toSet()));
  }

  private static void awaitFinished(
      StandaloneFlinkCluster cluster, SqlGatewayProcess gateway, String jobId) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    String state = "unknown";
    while (System.nanoTime() < deadline && !List.of("FAILED", "CANCELED").contains(state)) {
      Matcher matcher = JOB_STATE.matcher(cluster.restGet("/jobs/" + jobId));
      state = matcher.find() ? matcher.group(1) : "unknown";
      if (state.equals("FINISHED")) {
        return;
      }
      Thread.sleep(200);
    }
    throw new AssertionError(
        "job "
            + jobId
            + " is "
            + state
            + "; exceptions: "
            + cluster.restGet("/jobs/" + jobId + "/exceptions")
            + "\nTaskManager output:\n"
            + cluster.output("taskmanager-0")
            + "\nJobManager output:\n"
            + cluster.output("jobmanager")
            + "\nSQL Gateway output:\n"
            + gateway.output());
  }

  /** The job's checkpoint counts (completed, failed...), for the log. */
  private static String checkpointCounts(StandaloneFlinkCluster cluster, String jobId)
      throws IOException {
    Matcher counts =
        Pattern.compile("\"counts\"\\s*:\\s*\\{[^}]*}")
            .matcher(cluster.restGet("/jobs/" + jobId + "/checkpoints"));
    return counts.find() ? counts.group() : "no checkpoint counts";
  }
}
