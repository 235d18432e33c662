package dev.mortar.benchmark.e2e;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Sizes and clean-up of the tables a benchmark job wrote on local disk. */
public final class TableFiles {
  private static final int DELETE_ATTEMPTS = 50;
  private static final long DELETE_PAUSE_MILLIS = 100;

  private TableFiles() {}

  /** Bytes of the files under {@code dir}, Hadoop's {@code .crc} checksum side files excluded. */
  public static long bytesOnDisk(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return 0;
    }
    try (Stream<Path> files = Files.walk(dir)) {
      return files
          .filter(Files::isRegularFile)
          .filter(file -> !file.getFileName().toString().endsWith(".crc"))
          .mapToLong(
              file -> {
                try {
                  return Files.size(file);
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              })
          .sum();
    }
  }

  /**
   * Deletes {@code dir} with everything under it. A finished Mortar job's coordinator may still be
   * replacing its writer lease, through a file in {@code .hoodie/.temp}, as the job's result comes
   * out: a folder that a file entered or left while it was being emptied is emptied again, up to
   * {@link #DELETE_ATTEMPTS} times {@link #DELETE_PAUSE_MILLIS} ms apart.
   */
  public static void deleteRecursively(Path dir) throws IOException {
    for (int attempt = 1; ; attempt++) {
      try {
        deleteOnce(dir);
        return;
      } catch (DirectoryNotEmptyException | UncheckedIOException changedMeanwhile) {
        if (attempt == DELETE_ATTEMPTS) {
          throw changedMeanwhile;
        }
      }
      try {
        Thread.sleep(DELETE_PAUSE_MILLIS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted while deleting " + dir);
      }
    }
  }

  private static void deleteOnce(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    }
  }
}
