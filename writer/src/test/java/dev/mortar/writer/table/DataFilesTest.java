package dev.mortar.writer.table;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DataFilesTest {
  @TempDir java.nio.file.Path dir;
  private FileSystem fs;
  private Path base;

  @BeforeEach
  void setUp() throws Exception {
    fs = FileSystem.getLocal(new Configuration());
    base = new Path(dir.resolve("t").toUri());
  }

  @Test
  void namesEachFilesFolderBelowTheBasePathAndLeavesOutTheMetaFolder() throws Exception {
    create("top.parquet");
    create("dt=2026-11-29/a.parquet");
    create("dt=2026-11-29/.a_1.log.1_0-1-0");
    create("year=2026/month=11/day 29/b.parquet");
    create(".hoodie/hoodie.properties");
    create(".hoodie/timeline/1.deltacommit.requested");
    create(".hoodie/.temp/1/dt=2026-11-29/a.parquet.marker.MERGE");

    assertThat(DataFiles.list(fs, base))
        .extracting(file -> file.partitionPath() + " | " + file.name())
        .containsExactlyInAnyOrder(
            " | top.parquet",
            "dt=2026-11-29 | a.parquet",
            "dt=2026-11-29 | .a_1.log.1_0-1-0",
            "year=2026/month=11/day 29 | b.parquet");
  }

  @Test
  void anEmptyTableHasNoDataFiles() throws Exception {
    create(".hoodie/hoodie.properties");
    fs.mkdirs(new Path(base, "dt=2026-11-29"));

    assertThat(DataFiles.list(fs, base)).isEmpty();
  }

  @Test
  void aQualifiedAndAnUnqualifiedBasePathListTheSameFiles() throws Exception {
    create("dt=1/a.parquet");
    Path unqualified = new Path(base.toUri().getPath());

    List<String> names =
        DataFiles.list(fs, unqualified).stream()
            .map(file -> file.partitionPath() + "/" + file.name())
            .toList();
    assertThat(names).containsExactly("dt=1/a.parquet");
  }

  private void create(String relative) throws Exception {
    fs.create(new Path(base, relative)).close();
  }
}
