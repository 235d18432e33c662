package dev.mortar.writer.table;

import java.io.IOException;
import java.io.InputStream;
import java.util.Collections;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * {@code java.util.Properties} text files as Hudi writes them ({@code Properties.store} to a byte
 * stream: a comment line, a date line, ISO 8859-1 {@code key=value} lines with {@code :} and {@code
 * =} escaped and other characters as Unicode escapes), with the keys sorted so the file is stable
 * and diffable.
 */
final class PropertiesFile {
  private PropertiesFile() {}

  static boolean publish(
      FileSystem fs, Path tempDir, Path target, Map<String, String> values, String comment)
      throws IOException {
    Properties sorted = new SortedProperties(values);
    return AtomicFile.publish(fs, tempDir, target, out -> sorted.store(out, comment));
  }

  static Properties read(FileSystem fs, Path path) throws IOException {
    Properties properties = new Properties();
    try (InputStream in = fs.open(path)) {
      properties.load(in);
    }
    return properties;
  }

  /** Properties whose {@code store} writes keys in sorted order. */
  private static final class SortedProperties extends Properties {
    private final TreeMap<Object, Object> sorted = new TreeMap<>();

    SortedProperties(Map<String, String> values) {
      sorted.putAll(values);
      putAll(values);
    }

    @Override
    public Set<Map.Entry<Object, Object>> entrySet() {
      return Collections.unmodifiableSet(sorted.entrySet());
    }
  }
}
