package dev.mortar.benchmark.compaction;

import dev.mortar.writer.table.WriterLease;
import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/** Copies, deletes and counts the files of local table folders. */
final class TableCopies {
  private TableCopies() {}

  /**
   * Copies the table folder {@code source} to {@code target}, which must not exist, without the
   * writer's lease: the lease belongs to the source's writer, whose coordinator may still be
   * releasing it (replacing its file) after the job has finished.
   */
  static void copy(Path source, Path target) throws IOException {
    Path lease = source.resolve(".hoodie").resolve(".aux").resolve(WriterLease.FOLDER);
    Files.walkFileTree(
        source,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attributes)
              throws IOException {
            if (dir.equals(lease)) {
              return FileVisitResult.SKIP_SUBTREE;
            }
            Files.createDirectories(target.resolve(source.relativize(dir)));
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attributes)
              throws IOException {
            Files.copy(file, target.resolve(source.relativize(file)));
            return FileVisitResult.CONTINUE;
          }
        });
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
