package dev.mortar.writer.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mortar.logformat.LogBlockFormat;
import dev.mortar.testing.HudiTableOracle;
import dev.mortar.testing.Seeds;
import java.nio.file.Path;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A SQL job writes its table to a real in-process HDFS (MiniDFSCluster) and Hudi's reader verifies
 * it there, over {@code hdfs://}.
 */
class HdfsITCase {
  private static final Logger LOG = LoggerFactory.getLogger(HdfsITCase.class);

  @RegisterExtension static final MiniClusterExtension MINI_CLUSTER = MiniClusters.withSlots(4);

  @TempDir Path dir;

  @Test
  void sqlJobWritesTableOnHdfsThatHudiReads() throws Exception {
    Configuration conf = new Configuration();
    conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, dir.resolve("hdfs").toString());
    MiniDFSCluster hdfs = new MiniDFSCluster.Builder(conf).numDataNodes(1).build();
    try {
      hdfs.waitActive();
      String path = hdfs.getFileSystem().getUri() + "/warehouse/items";
      long seed = Seeds.seed("HdfsITCase");
      LOG.info("table {}", path);
      Changelog changelog = Changelog.random(seed, 800, 200, 100, 30);
      SinkJob job =
          SinkJob.at(path)
              .parallelism(2)
              .partitioned(true)
              .ordering(true)
              .format(LogBlockFormat.PARQUET)
              .perCheckpoint(200)
              .build();
      job.runSql(changelog);
      job.verify(changelog, conf);
      assertThat(HudiTableOracle.completedInstants(path)).hasSizeGreaterThan(1);
      assertThat(
              hdfs.getFileSystem()
                  .exists(new org.apache.hadoop.fs.Path(path, ".hoodie/hoodie.properties")))
          .isTrue();
    } finally {
      hdfs.shutdown();
    }
  }
}
