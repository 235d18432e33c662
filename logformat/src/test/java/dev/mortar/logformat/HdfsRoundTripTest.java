package dev.mortar.logformat;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mortar.testing.RandomRows;
import dev.mortar.testing.Seeds;
import java.io.File;
import java.util.List;
import org.apache.flink.table.types.logical.RowType;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The round trip of {@link LogFileWriterRoundTripTest} against a real in-process HDFS
 * (MiniDFSCluster): we write through {@code hdfs://}, Hudi's reader reads from {@code hdfs://}.
 */
class HdfsRoundTripTest {
  @TempDir static File hdfsDir;
  private static MiniDFSCluster cluster;
  private static FileSystem fs;

  @BeforeAll
  static void startHdfs() throws Exception {
    Configuration conf = new Configuration();
    conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, hdfsDir.getAbsolutePath());
    cluster = new MiniDFSCluster.Builder(conf).numDataNodes(1).build();
    cluster.waitActive();
    fs = cluster.getFileSystem();
  }

  @AfterAll
  static void stopHdfs() {
    if (cluster != null) {
      cluster.shutdown();
    }
  }

  @Test
  void avroAndParquetBlocksWrittenToHdfsAreReadByHudiFromHdfs() throws Exception {
    long seed = Seeds.seed("avroAndParquetBlocksWrittenToHdfsAreReadByHudiFromHdfs");
    RandomRows random = new RandomRows(seed);
    RowType rowType = random.tableRowTypeOfEveryKind();
    Path base = new Path(fs.getUri().toString(), "/tables/t1");
    assertThat(base.toString()).startsWith("hdfs://");

    LogWriterOptions avro = LogWriterOptions.builder().maxBlockSizeBytes(16 << 10).build();
    List<LogFileStat> first =
        RoundTrip.writeAndVerify(fs, base, avro, random, rowType, 300, 20, seed);
    LogWriterOptions parquet =
        avro.toBuilder()
            .blockFormat(LogBlockFormat.PARQUET)
            .parquetCodec(ParquetCodec.ZSTD)
            .build();
    List<LogFileStat> second =
        RoundTrip.writeAndVerify(fs, base, parquet, random, rowType, 300, 20, seed + 1);

    // The second flush of the same file group and instant found version 1 and never appended to it.
    assertThat(first).extracting(LogFileStat::version).containsExactly(1);
    assertThat(second).extracting(LogFileStat::version).containsExactly(2);
  }

  @Test
  void aFileStillOpenByAZombieWriterIsSkippedNotAppendedTo() throws Exception {
    long seed = Seeds.seed("aFileStillOpenByAZombieWriterIsSkippedNotAppendedTo");
    RandomRows random = new RandomRows(seed);
    Path base = new Path(fs.getUri().toString(), "/tables/t3");
    String version1 = LogFileName.of(RoundTrip.FILE_ID, RoundTrip.INSTANT, 1, RoundTrip.TOKEN);
    // Another client (a previous attempt that has not died yet) holds the lease on version 1.
    try (FileSystem zombieFs = FileSystem.newInstance(fs.getUri(), fs.getConf());
        FSDataOutputStream zombie =
            zombieFs.create(new Path(new Path(base, RoundTrip.PARTITION), version1), false)) {
      zombie.write(LogBlockLayout.MAGIC);
      zombie.hflush();
      List<LogFileStat> stats =
          RoundTrip.writeAndVerify(
              fs, base, LogWriterOptions.defaults(), random, random.tableRowType(3), 50, 5, seed);
      assertThat(stats).extracting(LogFileStat::version).containsExactly(2);
    }
  }

  @Test
  void rolloverOnHdfs() throws Exception {
    long seed = Seeds.seed("rolloverOnHdfs");
    RandomRows random = new RandomRows(seed);
    Path base = new Path(fs.getUri().toString(), "/tables/t2");
    LogWriterOptions options =
        LogWriterOptions.builder().maxFileSizeBytes(24 << 10).maxBlockSizeBytes(8 << 10).build();
    List<LogFileStat> stats =
        RoundTrip.writeAndVerify(fs, base, options, random, random.tableRowType(3), 400, 5, seed);
    assertThat(stats).hasSizeGreaterThan(1);
  }
}
