package dev.mortar.writer.table;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/** The same contract on a real in-process HDFS, where rename never replaces an existing file. */
class HudiReaderAcceptsHdfsTableTest extends HudiReaderAcceptsTableContract {
  @TempDir static java.nio.file.Path hdfsDir;
  private static MiniDFSCluster cluster;

  @BeforeAll
  static void startHdfs() throws Exception {
    Configuration conf = new Configuration();
    conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, hdfsDir.toString());
    cluster = new MiniDFSCluster.Builder(conf).numDataNodes(1).build();
    cluster.waitActive();
  }

  @AfterAll
  static void stopHdfs() {
    cluster.shutdown();
  }

  @Override
  FileSystem fs() throws Exception {
    return cluster.getFileSystem();
  }

  @Override
  String basePath(String name) {
    return cluster.getURI() + "/tables/" + name + "-" + System.nanoTime();
  }
}
