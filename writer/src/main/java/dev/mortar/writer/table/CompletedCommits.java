package dev.mortar.writer.table;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.avro.file.DataFileStream;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Reads what completed instants on a timeline hold ({@code T_X.deltacommit}, {@code C_X.commit}:
 * the {@link CommitMetadataFile} record, written by Mortar or by Hudi): the table schema in the
 * newest one's {@code extraMetadata["schema"]}, and the records a compaction wrote.
 */
public final class CompletedCommits {
  private static final Pattern COMPLETED = Pattern.compile("(\\d+)_(\\d+)\\.(deltacommit|commit)");

  private CompletedCommits() {}

  /**
   * The writer schema (Avro JSON, without meta fields) of the completed instant with the newest
   * completion time that records one, or empty when none does.
   */
  static Optional<String> latestSchema(FileSystem fs, Path timelineDir) {
    List<FileStatus> newestFirst =
        completed(fs, timelineDir)
            .sorted(Comparator.comparing(CompletedCommits::completionTime).reversed())
            .toList();
    for (FileStatus file : newestFirst) {
      Optional<String> schema = schemaOf(read(fs, file.getPath()));
      if (schema.isPresent()) {
        return schema;
      }
    }
    return Optional.empty();
  }

  /**
   * The records compaction {@code instant} wrote into its base files (the sum of its write stats'
   * {@code numWrites}), or empty while it has no completed commit.
   */
  public static OptionalLong compactionRecords(FileSystem fs, Path timelineDir, String instant) {
    Optional<FileStatus> commit =
        completed(fs, timelineDir)
            .filter(file -> file.getPath().getName().startsWith(instant + "_"))
            .filter(file -> file.getPath().getName().endsWith(".commit"))
            .findFirst();
    if (commit.isEmpty()) {
      return OptionalLong.empty();
    }
    Object byPartition = read(fs, commit.get().getPath()).get("partitionToWriteStats");
    long records = 0;
    if (byPartition != null) {
      for (Object stats : ((Map<?, ?>) byPartition).values()) {
        for (Object stat : (List<?>) stats) {
          Object numWrites = ((GenericRecord) stat).get("numWrites");
          records += numWrites == null ? 0 : (Long) numWrites;
        }
      }
    }
    return OptionalLong.of(records);
  }

  private static Stream<FileStatus> completed(FileSystem fs, Path timelineDir) {
    try {
      return Stream.of(fs.listStatus(timelineDir))
          .filter(FileStatus::isFile)
          .filter(file -> COMPLETED.matcher(file.getPath().getName()).matches());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list timeline " + timelineDir, e);
    }
  }

  private static String completionTime(FileStatus file) {
    Matcher matcher = COMPLETED.matcher(file.getPath().getName());
    matcher.matches();
    return matcher.group(2);
  }

  /** {@code extraMetadata["schema"]} unless empty; Avro reads the map's keys as {@code Utf8}. */
  private static Optional<String> schemaOf(GenericRecord metadata) {
    Object extra = metadata.get("extraMetadata");
    if (extra != null) {
      for (Map.Entry<?, ?> entry : ((Map<?, ?>) extra).entrySet()) {
        if (entry.getKey().toString().equals("schema") && entry.getValue() != null) {
          String schema = entry.getValue().toString();
          return schema.isEmpty() ? Optional.empty() : Optional.of(schema);
        }
      }
    }
    return Optional.empty();
  }

  private static GenericRecord read(FileSystem fs, Path file) {
    try (InputStream in = fs.open(file);
        DataFileStream<GenericRecord> records =
            new DataFileStream<>(in, new GenericDatumReader<>())) {
      if (!records.hasNext()) {
        throw new IllegalStateException("commit metadata " + file + " holds no record");
      }
      return records.next();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read commit metadata " + file, e);
    }
  }
}
