package dev.mortar.writer.table;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * A Hudi 1.1 Merge-On-Read table (table version 9, timeline layout 2) that Mortar writes:
 *
 * <pre>
 * base/
 *   .hoodie/hoodie.properties            {@link TableProperties}, published once by rename
 *   .hoodie/timeline/                    {@link Timeline}; timeline/history/ is created empty
 *   .hoodie/.aux/ .temp/ .schema/         as Hudi's table init creates them; .temp holds our temp files
 *   partition/.hoodie_partition_metadata {@link PartitionMetafile}
 *   partition/.fileId_T.log.V_token       log files, see {@link BucketIndex#fileId}
 * </pre>
 *
 * {@link #createOrValidate} creates this layout on first start and on later starts fails, naming
 * each difference, if the existing table does not match the sink's settings.
 */
public final class HudiTable {
  static final String META_FOLDER = ".hoodie";
  private static final String AUX_FOLDER = ".aux";
  private static final String TEMP_FOLDER = ".temp";
  private static final String SCHEMA_FOLDER = ".schema";

  private final FileSystem fs;
  private final Path basePath;
  private final TableSettings settings;
  private final Path tempDir;
  private final Timeline timeline;
  private final Set<String> knownPartitions = ConcurrentHashMap.newKeySet();

  private HudiTable(FileSystem fs, Path basePath, TableSettings settings, Clock clock) {
    this.fs = fs;
    this.basePath = basePath;
    this.settings = settings;
    Path metaDir = new Path(basePath, META_FOLDER);
    this.tempDir = tempDir(basePath);
    this.timeline =
        new Timeline(
            fs, basePath, new Path(metaDir, TableProperties.TIMELINE_FOLDER), tempDir, clock);
  }

  /** The table's temporary folder, {@code .hoodie/.temp}: staged files and compaction markers. */
  public static Path tempDir(Path basePath) {
    return new Path(new Path(basePath, META_FOLDER), TEMP_FOLDER);
  }

  public static HudiTable createOrValidate(FileSystem fs, Path basePath, TableSettings settings) {
    return createOrValidate(fs, basePath, settings, Clock.systemDefaultZone());
  }

  static HudiTable createOrValidate(
      FileSystem fs, Path basePath, TableSettings settings, Clock clock) {
    Path metaDir = new Path(basePath, META_FOLDER);
    Path propertiesFile = propertiesFile(basePath);
    try {
      if (!fs.exists(propertiesFile)) {
        create(fs, metaDir, propertiesFile, settings);
      }
      TableProperties.validate(
          PropertiesFile.read(fs, propertiesFile), settings, basePath.toString());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create or open the Hudi table at " + basePath, e);
    }
    return new HudiTable(fs, basePath, settings, clock);
  }

  private static void create(
      FileSystem fs, Path metaDir, Path propertiesFile, TableSettings settings) throws IOException {
    Path timelineDir = new Path(metaDir, TableProperties.TIMELINE_FOLDER);
    for (Path dir :
        new Path[] {
          new Path(timelineDir, TableProperties.HISTORY_FOLDER),
          new Path(metaDir, AUX_FOLDER),
          new Path(metaDir, TEMP_FOLDER),
          new Path(metaDir, SCHEMA_FOLDER)
        }) {
      fs.mkdirs(dir);
    }
    // A concurrent creator may win the rename; validation then checks its file instead.
    PropertiesFile.publish(
        fs, new Path(metaDir, TEMP_FOLDER), propertiesFile, TableProperties.of(settings), null);
  }

  /** The table's {@code hoodie.properties}; the table exists once it does. */
  static Path propertiesFile(Path basePath) {
    return new Path(new Path(basePath, META_FOLDER), TableProperties.FILE_NAME);
  }

  /** Hudi's auxiliary folder, which its readers ignore: where Mortar keeps its own files. */
  static Path auxFolder(Path basePath) {
    return new Path(new Path(basePath, META_FOLDER), AUX_FOLDER);
  }

  public Timeline timeline() {
    return timeline;
  }

  public TableSettings settings() {
    return settings;
  }

  public Path basePath() {
    return basePath;
  }

  /**
   * The table's Avro schema without meta fields ({@link TableSettings#avroSchema()}), as stored in
   * hoodie.table.create.schema and in each commit's metadata.
   */
  public String avroSchemaJson() {
    return settings.avroSchema().toString();
  }

  /**
   * Makes a partition discoverable by Hudi's readers before a log file of {@code instant} lands in
   * it: writes its partition metafile unless it exists.
   */
  public void ensurePartition(String partitionPath, String instant) {
    if (knownPartitions.contains(partitionPath)) {
      return;
    }
    try {
      PartitionMetafile.ensure(fs, basePath, tempDir, partitionPath, instant);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create partition '" + partitionPath + "'", e);
    }
    knownPartitions.add(partitionPath);
  }
}
