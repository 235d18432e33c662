package dev.mortar.benchmark.compaction;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/** Copies, deletes and counts the files of local table folders. */
final class TableCopies {
  private TableCopies() {}

  /** Copies the folder {@code source} to {@code target}, which must not exist. */
  static void copy(Path source, Path target) throws IOException {
    try (Stream<Path> files = Files.walk(source)) {
      for (Path file : files.toList()) {
        Path copy = target.resolve(source.relativize(file));
        if (Files.isDirectory(file)) {
          Files.createDirectories(copy);
        } else {
          Files.copy(file, copy);
        }
      }
    }
  }

  /** Deletes the folder and everything in it. */
  static void delete(Path folder) throws IOException {
    List<Path> files;
    try (Stream<Path> walk = Files.walk(folder)) {
      files = walk.sorted(Comparator.reverseOrder()).toList();
    }
    for (Path file : files) {
      Files.delete(file);
    }
  }

  /** Log files in the table's partitions. */
  static long logFiles(Path table) throws IOException {
    try (Stream<Path> files = Files.walk(table)) {
      return files
          .map(file -> file.getFileName().toString())
          .filter(name -> name.contains(".log.") && !name.endsWith(".crc"))
          .count();
    }
  }
}
