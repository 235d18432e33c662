package dev.mortar.writer.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mortar.logformat.LogBlockFormat;
import dev.mortar.testing.HudiTableOracle;
import dev.mortar.testing.Seeds;
import dev.mortar.writer.compaction.FileGroupFiles;
import dev.mortar.writer.compaction.FileGroupId;
import dev.mortar.writer.compaction.TableFiles;
import dev.mortar.writer.it.Failures.Plan;
import dev.mortar.writer.it.Failures.Point;
import dev.mortar.writer.table.FileDeletes;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tables and checkpoints on object storage: DataStream jobs write through Hadoop's S3A to an S3
 * server on loopback ({@link LoopbackS3}), keep their checkpoints there too (Flink's Hadoop file
 * system fallback for {@code s3a}, no plugin), and Hudi's reader verifies the table over S3A. S3
 * has no rename: S3A copies the commit file's temp object to its target, then deletes the temp
 * object (rfc/0004, "Object storage").
 */
class S3ITCase {
  private static final Logger LOG = LoggerFactory.getLogger(S3ITCase.class);
  private static final String CHECKPOINTS = "checkpoints";

  /** A request's round trip to an object store in the same region, give or take. */
  private static final long ROUND_TRIP_MILLIS = 10;

  @RegisterExtension static final MiniClusterExtension MINI_CLUSTER = MiniClusters.withSlots(4);

  /** What a cluster's config.yaml says to let Hadoop's S3A serve s3a:// without Flink's plugin. */
  private static final Configuration S3A_FALLBACK =
      new Configuration().set(CoreOptions.ALLOWED_FALLBACK_FILESYSTEMS, "s3a");

  private static final PluginFolder S3_PLUGIN =
      new PluginFolder(java.nio.file.Path.of("target", "flink-plugins"));

  private static LoopbackS3 s3;

  @BeforeAll
  static void startS3() throws Exception {
    s3 = LoopbackS3.start();
    // A MiniCluster leaves Flink's file systems as the JVM has them, so set them here.
    org.apache.flink.core.fs.FileSystem.initialize(S3A_FALLBACK, null);
  }

  @AfterAll
  static void stopS3() throws Exception {
    org.apache.flink.core.fs.FileSystem.initialize(new Configuration(), null);
    s3.close();
  }

  @AfterEach
  void disarm() {
    Failures.disarm();
  }

  @Test
  void compactingJobWritesTableAndCheckpointsOnS3() throws Exception {
    long seed = Seeds.seed("S3ITCase.compacting");
    Changelog changelog =
        Changelog.random(seed, 400, 120, 100, 30).withoutStaleChangesAfterDeletes();
    SinkJob job =
        SinkJob.at(LoopbackS3.uri("compacting"))
            .parallelism(2)
            .partitioned(true)
            .ordering(true)
            .format(LogBlockFormat.PARQUET)
            .perCheckpoint(80)
            .compactEvery(2)
            .compactionInJob(false)
            .build();
    run(job, changelog, LoopbackS3.uri(CHECKPOINTS + "/compacting"));
    // A bounded job gives up the compactions it planned and still runs when its input ends
    // (rfc/0006), which on S3 depends on timing. The plans this job left pending are those a job
    // resumes when its committer opens and finishes before it ends: the second job compacts them.
    SinkJob compacting = job.toBuilder().compactionInJob(true).build();
    run(compacting, changelog.slice(0, 0), LoopbackS3.uri(CHECKPOINTS + "/compacting-2"));

    job.verify(changelog, new org.apache.hadoop.conf.Configuration());
    assertThat(HudiTableOracle.completedInstants(job.path()))
        .as("seed %s", seed)
        .hasSizeGreaterThan(2);
    assertThat(timelineFiles(job.path(), ".commit"))
        .as("completed compactions, seed %s", seed)
        .isNotEmpty();
    verifyNothingUncommittedLeft(job.path());
    assertThat(s3.objectsBelow(CHECKPOINTS + "/compacting/"))
        .as("checkpoint objects on S3")
        .isNotEmpty();
  }

  /**
   * Checkpoints the way most users keep them on S3: through Flink's own S3 file system, loaded from
   * a plugin folder as a cluster loads {@code plugins/s3-fs-hadoop/} (its own class loader, its own
   * shaded Hadoop and AWS SDK), under {@code s3://}; the table through Hadoop's S3A on the class
   * path, as {@code HADOOP_CLASSPATH} gives it. A failure after a checkpoint completed makes the
   * job restore from it and publish its commit again.
   */
  @Test
  void checkpointsThroughFlinksS3PluginBesideTheTableOnS3A() throws Exception {
    long seed = Seeds.seed("S3ITCase.plugin");
    SplittableRandom random = new SplittableRandom(seed);
    int changes = 300;
    Changelog changelog = Changelog.random(seed, changes, 100, 100, 30);
    SinkJob job = SinkJob.at(LoopbackS3.uri("plugin")).parallelism(2).restarts(true).build();
    Configuration flink = s3.flinkS3Settings();
    org.apache.flink.core.fs.FileSystem.initialize(flink, S3_PLUGIN.manager(flink));
    try {
      Failures.arm(List.of(Plan.random(Point.COMMIT_PUBLISH, changes, random)));
      run(job, changelog, "s3://" + LoopbackS3.BUCKET + "/" + CHECKPOINTS + "/plugin");
    } finally {
      org.apache.flink.core.fs.FileSystem.initialize(S3A_FALLBACK, null);
    }

    assertThat(Failures.fired()).as("seed %s: the failure fired", seed).hasSize(1);
    job.verify(changelog, new org.apache.hadoop.conf.Configuration());
    verifyNothingUncommittedLeft(job.path());
    assertThat(s3.objectsBelow(CHECKPOINTS + "/plugin/"))
        .as("checkpoint objects the plugin wrote")
        .anyMatch(name -> name.endsWith("/_metadata"));
  }

  /**
   * Two failures: in the source (the open interval's log files are left on S3 and aborted later),
   * then at the publication of a delta commit whose checkpoint completed: the job restores from its
   * checkpoint on S3 and its committer publishes the commit again.
   */
  @Test
  void failuresBeforeAndAfterTheCheckpointEndExactlyOnce() throws Exception {
    long seed = Seeds.seed("S3ITCase.failures");
    SplittableRandom random = new SplittableRandom(seed);
    int changes = 300;
    Changelog changelog = Changelog.random(seed, changes, 100, 100, 30);
    SinkJob job =
        SinkJob.at(LoopbackS3.uri("failures"))
            .parallelism(2)
            .partitioned(random.nextBoolean())
            .ordering(random.nextBoolean())
            .restarts(true)
            .build();
    List<Plan> plans =
        List.of(
            Plan.random(Point.SOURCE_OFFSET, changes, random),
            Plan.random(Point.COMMIT_PUBLISH, changes, random));
    LOG.info("seed {}: {}, failures {}", seed, job, plans);
    Failures.arm(plans);
    run(job, changelog, LoopbackS3.uri(CHECKPOINTS + "/failures"));

    assertThat(Failures.fired()).as("seed %s: every failure point fired", seed).hasSize(2);
    LOG.info("seed {}: fired {}", seed, Failures.fired());
    job.verify(changelog, new org.apache.hadoop.conf.Configuration());
    verifyNothingUncommittedLeft(job.path());
  }

  /**
   * A write task with several flush threads writes different file groups side by side: a checkpoint
   * that touches 48 file groups (3 partitions of 16 buckets) uploads its log files several at a
   * time, each a few round trips of {@value #ROUND_TRIP_MILLIS} ms here. Hudi's reader reads the
   * table exact.
   */
  @Test
  void flushThreadsUploadLogFilesSideBySide() throws Exception {
    long seed = Seeds.seed("S3ITCase.flushThreads");
    Changelog changelog = Changelog.random(seed, 2_000, 1_000, 100, 30);
    SinkJob job =
        SinkJob.at(LoopbackS3.uri("flush-threads"))
            .partitioned(true)
            .buckets(16)
            .perCheckpoint(1_000)
            .flushThreads(8)
            .build();
    s3.roundTrip(ROUND_TRIP_MILLIS);
    try {
      run(job, changelog, LoopbackS3.uri(CHECKPOINTS + "/flush-threads"));
    } finally {
      s3.roundTrip(0);
    }

    assertThat(s3.mostDataUploadsAtOnce()).as("log file uploads at one time").isGreaterThan(1);
    job.verify(changelog, new org.apache.hadoop.conf.Configuration());
    verifyNothingUncommittedLeft(job.path());
  }

  /**
   * A file larger than S3A's part size (5 MB, the least S3 takes, in this module's core-site.xml)
   * goes up in parts that S3 joins when the writer closes it, so a log file of one checkpoint's
   * 60,000 rows (several parts) is a multipart upload; Hudi's reader reads the table exact.
   */
  @Test
  void aLogFileLargerThanOnePartIsUploadedInParts() throws Exception {
    long seed = Seeds.seed("S3ITCase.multipart");
    int changes = 60_000;
    Changelog changelog = Changelog.random(seed, changes, changes, 0, 0);
    SinkJob job =
        SinkJob.at(LoopbackS3.uri("multipart"))
            .parallelism(1)
            .buckets(1)
            .perCheckpoint(changes)
            .build();
    long before = s3.multipartUploads();
    run(job, changelog, LoopbackS3.uri(CHECKPOINTS + "/multipart"));

    assertThat(s3.multipartUploads() - before).as("multipart uploads completed").isPositive();
    job.verify(changelog, new org.apache.hadoop.conf.Configuration());
    verifyNothingUncommittedLeft(job.path());
  }

  /**
   * Planning, cleaning and aborting list the whole table; on S3 that costs requests by the thousand
   * files, not one per partition folder: 300 partitions take one list request (S3A's flat listing),
   * where a walk of the folders takes 300 or more.
   */
  @Test
  void aTableOfManyPartitionsIsListedInOneRequestPerThousandFiles() throws Exception {
    int partitions = 300;
    String table = "many-partitions";
    for (int p = 0; p < partitions; p++) {
      String fileId = String.format("%08d-0000-0000-0000-000000000000-0", p % 4);
      String partition = table + "/dt=2026-11-" + p + "/";
      s3.put(partition + fileId + "_0-1-0_20261129000000000.parquet", new byte[8]);
      s3.put(partition + "." + fileId + "_20261129000001001.log.1_0-1-0", new byte[8]);
    }
    s3.put(table + "/.hoodie/hoodie.properties", new byte[8]);
    s3.put(table + "/.hoodie/timeline/20261129000001001.deltacommit.requested", new byte[0]);

    try (FileSystem fs = open(LoopbackS3.uri(table))) {
      long before = s3.listRequests();
      Map<FileGroupId, FileGroupFiles> groups =
          TableFiles.list(fs, new Path(LoopbackS3.uri(table)));
      long requests = s3.listRequests() - before;

      assertThat(groups).hasSize(partitions);
      assertThat(groups.values())
          .allSatisfy(
              files -> {
                assertThat(files.baseFiles()).hasSize(1);
                assertThat(files.logFiles()).hasSize(1);
              });
      assertThat(groups.keySet())
          .extracting(FileGroupId::partitionPath)
          .contains("dt=2026-11-0", "dt=2026-11-299");
      assertThat(requests).as("list requests").isEqualTo(1);
    }
  }

  /**
   * A clean or an abort deletes its files side by side: on S3 each delete is a few round trips, and
   * a clean of a many-partition table deletes thousands of files.
   */
  @Test
  void manyFilesAreDeletedSideBySide() throws Exception {
    int count = 400;
    List<Path> files = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      String key = "deletes/dt=" + i + "/.f" + i + "_20261129000001001.log.1_0-1-0";
      s3.put(key, new byte[i]);
      files.add(new Path(LoopbackS3.uri(key)));
    }
    files.add(new Path(LoopbackS3.uri("deletes/never-written")));

    long[] sizes;
    long start = System.nanoTime();
    s3.roundTrip(ROUND_TRIP_MILLIS);
    try (FileSystem fs = open(LoopbackS3.uri("deletes"))) {
      sizes = FileDeletes.delete(fs, files);
    } finally {
      s3.roundTrip(0);
    }
    LOG.info(
        "deleted {} files with {} ms per request in {} ms",
        count,
        ROUND_TRIP_MILLIS,
        (System.nanoTime() - start) / 1_000_000);

    assertThat(s3.objectsBelow("deletes/"))
        .as("objects left but the folder markers S3A puts where a folder became empty")
        .allMatch(name -> name.endsWith("/"));
    assertThat(sizes).hasSize(count + 1);
    assertThat(sizes[count - 1]).as("size of the last file").isEqualTo(count - 1);
    assertThat(sizes[count]).as("a file that was not there").isEqualTo(-1);
    assertThat(s3.mostDeletesAtOnce()).as("deletes the server served at one time").isGreaterThan(1);
  }

  private static void run(SinkJob job, Changelog changelog, String checkpoints) throws Exception {
    StreamExecutionEnvironment env =
        job.environment(
            new Configuration().set(CheckpointingOptions.CHECKPOINTS_DIRECTORY, checkpoints));
    job.addDataStream(env, changelog);
    long start = System.nanoTime();
    env.execute("mortar on s3, checkpoints in " + checkpoints);
    LOG.info(
        "job with checkpoints in {} took {} ms",
        checkpoints,
        (System.nanoTime() - start) / 1_000_000);
  }

  /**
   * No instant is pending and every log file below the table belongs to a completed instant: what
   * the failed attempts wrote was removed over S3A.
   */
  private static void verifyNothingUncommittedLeft(String path) throws IOException {
    List<String> completed = HudiTableOracle.completedInstants(path);
    assertThat(HudiTableOracle.pendingInstants(path)).as("pending instants").isEmpty();
    List<String> logFiles = new ArrayList<>();
    try (FileSystem fs = open(path)) {
      RemoteIterator<LocatedFileStatus> files = fs.listFiles(new Path(path), true);
      while (files.hasNext()) {
        String name = files.next().getPath().getName();
        if (name.contains(".log.")) {
          logFiles.add(name);
        }
      }
    }
    assertThat(logFiles).isNotEmpty();
    for (String logFile : logFiles) {
      String instant = logFile.substring(logFile.indexOf('_') + 1, logFile.indexOf(".log."));
      assertThat(completed).as("instant of %s", logFile).contains(instant);
    }
  }

  private static List<String> timelineFiles(String path, String suffix) throws IOException {
    List<String> names = new ArrayList<>();
    try (FileSystem fs = open(path)) {
      for (FileStatus status : fs.listStatus(new Path(path, ".hoodie/timeline"))) {
        if (status.getPath().getName().endsWith(suffix)) {
          names.add(status.getPath().getName());
        }
      }
    }
    return names;
  }

  private static FileSystem open(String path) throws IOException {
    return FileSystem.newInstance(URI.create(path), new org.apache.hadoop.conf.Configuration());
  }
}
