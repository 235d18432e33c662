package dev.mortar.writer.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mortar.testing.Seeds;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.apache.avro.generic.GenericRecord;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.avro.AvroParquetReader;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

class ArchivalITCase {
  private static final Logger LOG = LoggerFactory.getLogger(ArchivalITCase.class);

  @RegisterExtension static final MiniClusterExtension MINI_CLUSTER = MiniClusters.withSlots(4);

  @TempDir Path dir;

  @Test
  void hudiArchiverLayout() throws Exception {
    long seed = Seeds.seed("ArchivalITCase");
    SinkJob job =
        SinkJob.at(dir.resolve("t").toUri().toString())
            .parallelism(2)
            .buckets(2)
            .perCheckpoint(20)
            .compactEvery(2)
            .build();
    Changelog all = Changelog.random(seed, 600, 100, 100, 30).withoutStaleChangesAfterDeletes();
    job.runDataStream(all);
    Path timeline = dir.resolve("t/.hoodie/timeline");
    LOG.info("before: {}", listing(timeline));
    HudiClient.archive(job.path(), 4, 6);
    LOG.info("after: {}", listing(timeline));
    Path history = timeline.resolve("history");
    LOG.info("history: {}", listing(history));
    for (Path file : files(history)) {
      String name = file.getFileName().toString();
      if (name.startsWith("manifest_") || name.equals("_version_")) {
        LOG.info("{}:\n{}", name, Files.readString(file, StandardCharsets.UTF_8));
      } else if (name.endsWith(".parquet")) {
        org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path(file.toUri());
        try (ParquetFileReader reader =
            ParquetFileReader.open(HadoopInputFile.fromPath(p, new Configuration()))) {
          ParquetMetadata footer = reader.getFooter();
          LOG.info(
              "{}: schema {}\nkv {}\nrowgroups {} created by {}",
              name,
              footer.getFileMetaData().getSchema(),
              footer.getFileMetaData().getKeyValueMetaData(),
              footer.getBlocks().size(),
              footer.getFileMetaData().getCreatedBy());
          footer.getBlocks().get(0).getColumns().forEach(c -> LOG.info("  column {}", c));
        }
        try (ParquetReader<GenericRecord> records =
            AvroParquetReader.<GenericRecord>builder(
                    HadoopInputFile.fromPath(p, new Configuration()))
                .build()) {
          for (GenericRecord r = records.read(); r != null; r = records.read()) {
            LOG.info(
                "  record {} {} {} metadata {} plan {} version {}",
                r.get("instantTime"),
                r.get("completionTime"),
                r.get("action"),
                size(r.get("metadata")),
                size(r.get("plan")),
                r.get("version"));
          }
        }
      }
    }
    job.verify(all);
    assertThat(files(history)).isNotEmpty();
  }

  private static Object size(Object bytes) {
    return bytes == null ? null : ((java.nio.ByteBuffer) bytes).remaining();
  }

  private static List<Path> files(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.sorted().toList();
    }
  }

  private static String listing(Path dir) throws IOException {
    StringBuilder out = new StringBuilder();
    for (Path file : files(dir)) {
      out.append('\n').append(file.getFileName()).append(' ').append(Files.size(file));
    }
    return out.toString();
  }
}
