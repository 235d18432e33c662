package dev.mortar.writer.archive;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The snapshot files of Hudi 1.1's archived timeline in {@code .hoodie/timeline/history/}:
 *
 * <pre>
 *   manifest_N   JSON {"files" : [ {"fileName" : "&lt;min&gt;_&lt;max&gt;_&lt;layer&gt;.parquet", "fileLen" : bytes}, ... ]},
 *                the data files of snapshot N (N = 1, 2, ...; Jackson's default pretty printer)
 *   _version_    the latest N as decimal text
 * </pre>
 *
 * A snapshot is written as Hudi does: {@code manifest_<N+1>} (an earlier attempt's leftover of that
 * name deleted first), then {@code _version_} replaced. A reader that finds no {@code _version_}
 * takes the highest manifest listed, so a crash between the two loses nothing. Older snapshots stay
 * readable until {@link ArchiveCleaner} deletes them.
 */
final class ArchiveManifest {
  private static final String VERSION_FILE = "_version_";
  private static final String MANIFEST_PREFIX = "manifest_";
  private static final Pattern MANIFEST = Pattern.compile("^manifest_(\\d+)$");
  private static final ObjectMapper JSON = new ObjectMapper();

  /** One data file of a snapshot. */
  record Entry(String fileName, long fileLen) {}

  private final int version;
  private final List<Entry> files;

  private ArchiveManifest(int version, List<Entry> files) {
    this.version = version;
    this.files = files;
  }

  /** The latest snapshot in {@code historyDir}; version 0 without files if there is none. */
  static ArchiveManifest latest(FileSystem fs, Path historyDir) throws IOException {
    return read(fs, historyDir, latestVersion(fs, historyDir));
  }

  /**
   * Snapshot {@code version} of {@code historyDir}; version 0 is the empty one, and so is an empty
   * manifest, as Hudi reads it (a crash creating {@code manifest_1} leaves it so, with no {@code
   * _version_}).
   */
  static ArchiveManifest read(FileSystem fs, Path historyDir, int version) throws IOException {
    if (version == 0) {
      return new ArchiveManifest(0, List.of());
    }
    Path manifest = path(historyDir, version);
    byte[] content;
    try (InputStream in = fs.open(manifest)) {
      content = in.readAllBytes();
    }
    if (content.length == 0) {
      return new ArchiveManifest(version, List.of());
    }
    Map<String, List<Map<String, Object>>> json = JSON.readValue(content, new TypeReference<>() {});
    List<Entry> files = new ArrayList<>();
    for (Map<String, Object> file : json.getOrDefault("files", List.of())) {
      files.add(
          new Entry((String) file.get("fileName"), ((Number) file.get("fileLen")).longValue()));
    }
    return new ArchiveManifest(version, List.copyOf(files));
  }

  private static int latestVersion(FileSystem fs, Path historyDir) throws IOException {
    Path versionFile = new Path(historyDir, VERSION_FILE);
    try (InputStream in = fs.open(versionFile)) {
      return Integer.parseInt(new String(in.readAllBytes(), StandardCharsets.UTF_8).trim());
    } catch (FileNotFoundException | NumberFormatException missingOrPartial) {
      List<Integer> versions = versions(fs, historyDir);
      return versions.isEmpty() ? 0 : versions.get(versions.size() - 1);
    }
  }

  /** The versions of every {@code manifest_N} in {@code historyDir}, ascending. */
  static List<Integer> versions(FileSystem fs, Path historyDir) throws IOException {
    List<Integer> versions = new ArrayList<>();
    if (fs.exists(historyDir)) {
      for (FileStatus status : fs.listStatus(historyDir)) {
        Matcher manifest = MANIFEST.matcher(status.getPath().getName());
        if (manifest.matches()) {
          versions.add(Integer.parseInt(manifest.group(1)));
        }
      }
    }
    versions.sort(null);
    return versions;
  }

  /** The file {@code manifest_<version>} in {@code historyDir}. */
  static Path path(Path historyDir, int version) {
    return new Path(historyDir, MANIFEST_PREFIX + version);
  }

  int version() {
    return version;
  }

  boolean contains(String fileName) {
    return files.stream().anyMatch(file -> file.fileName().equals(fileName));
  }

  /** The data files of this snapshot, in the order the manifest lists them. */
  List<Entry> files() {
    return files;
  }

  /** Publishes the next snapshot: this one's files and {@code added}. */
  ArchiveManifest publishWith(FileSystem fs, Path historyDir, Entry added) throws IOException {
    return publishReplacing(fs, historyDir, List.of(), added);
  }

  /** Publishes the next snapshot: this one's files without {@code removed}, then {@code added}. */
  ArchiveManifest publishReplacing(
      FileSystem fs, Path historyDir, List<String> removed, Entry added) throws IOException {
    List<Entry> next = new ArrayList<>();
    for (Entry file : files) {
      if (!removed.contains(file.fileName())) {
        next.add(file);
      }
    }
    next.add(added);
    Path manifest = path(historyDir, version + 1);
    fs.delete(manifest, false);
    try (OutputStream out = fs.create(manifest, false)) {
      JSON.writerWithDefaultPrettyPrinter().writeValue(out, Map.of("files", next));
    }
    Path versionFile = new Path(historyDir, VERSION_FILE);
    fs.delete(versionFile, false);
    try (OutputStream out = fs.create(versionFile, false)) {
      out.write(String.valueOf(version + 1).getBytes(StandardCharsets.UTF_8));
    }
    return new ArchiveManifest(version + 1, List.copyOf(next));
  }
}
