package dev.mortar.writer.it;

import dev.mortar.testing.HudiTableOracle;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;

/**
 * Reads a table with Hudi's reader again and again while a job writes it, on a thread of its own,
 * and records each read with the table's size on disk at that moment.
 *
 * <p>A read may fail only on a file that vanished under it: the cleaner and the archiver, which
 * keep the writer's pace, may delete what a slow read listed (Hudi's contract for readers slower
 * than the retained commits). Such a read is counted ({@link #outrunReads}); any other failure is
 * kept and thrown by {@link #close}. A read also notes whether a clean completed while it ran: one
 * that loaded the timeline while a compaction was pending and listed the files after that
 * compaction's clean sees the superseded slice gone and the new base file not yet committed, so it
 * misses that file group without an error (rfc/0007, "What is left").
 */
final class TableWatcher implements AutoCloseable {
  /**
   * One read: the {@code name} of each key's row as Hudi's reader returned it, the counts of the
   * table's files, and whether a clean completed while the read ran.
   */
  record Read(Map<String, String> nameByKey, TableFiles files, boolean cleanedWhileReading) {}

  /**
   * Data files (logs and base files), the most log files one file group has, and the files of the
   * active timeline (instant files, the archive folder left out).
   */
  record TableFiles(int dataFiles, int mostLogsPerFileGroup, int activeTimelineFiles) {
    static TableFiles count(Path table) throws IOException {
      Map<String, Integer> logsPerGroup = new HashMap<>();
      int[] data = {0};
      Files.walkFileTree(
          table,
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attributes) {
              return dir.getFileName().toString().equals(".hoodie")
                  ? FileVisitResult.SKIP_SUBTREE
                  : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
              String name = file.getFileName().toString();
              if (name.contains(".log.") && !name.endsWith(".crc")) {
                data[0]++;
                String group = file.getParent() + "/" + name.substring(1, name.indexOf('_'));
                logsPerGroup.merge(group, 1, Integer::sum);
              } else if (name.endsWith(".parquet")) {
                data[0]++;
              }
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
              if (e instanceof NoSuchFileException) {
                return FileVisitResult.CONTINUE; // deleted by the cleaner meanwhile
              }
              throw e;
            }
          });
      int timeline;
      try (Stream<Path> files = Files.list(table.resolve(".hoodie/timeline"))) {
        timeline =
            (int)
                files
                    .map(file -> file.getFileName().toString())
                    .filter(name -> Character.isDigit(name.charAt(0)) && !name.endsWith(".crc"))
                    .count();
      }
      int mostLogs = logsPerGroup.values().stream().mapToInt(Integer::intValue).max().orElse(0);
      return new TableFiles(data[0], mostLogs, timeline);
    }
  }

  private final String path;
  private final long intervalMillis;
  private final List<Read> reads = new ArrayList<>();
  private final Thread thread;
  private volatile boolean stopped;
  private volatile int outrunReads;
  private volatile Exception failure;

  private TableWatcher(String path, long intervalMillis) {
    this.path = path;
    this.intervalMillis = intervalMillis;
    this.thread = new Thread(this::watch, "table-watcher");
  }

  /** Starts reading the table at {@code path} (a file URI) every {@code intervalMillis}. */
  static TableWatcher start(String path, long intervalMillis) {
    TableWatcher watcher = new TableWatcher(path, intervalMillis);
    watcher.thread.start();
    return watcher;
  }

  private void watch() {
    Path table = Path.of(URI.create(path));
    while (!stopped) {
      try {
        Thread.sleep(intervalMillis);
        if (!Files.exists(table.resolve(".hoodie/hoodie.properties"))) {
          continue;
        }
        try {
          read(table);
        } catch (UncheckedIOException | IllegalStateException e) {
          if (!missingFile(e)) {
            throw e;
          }
          outrunReads++;
        }
      } catch (InterruptedException e) {
        return;
      } catch (IOException | UncheckedIOException | IllegalStateException e) {
        if (!stopped) {
          failure = e;
        }
        return;
      }
    }
  }

  private void read(Path table) throws IOException {
    String cleanBefore = newestCompletedClean(table);
    Map<String, String> names = new HashMap<>();
    HudiTableOracle.forEachRow(
        path,
        new Configuration(),
        (key, row, slice) ->
            names.put(key, row.get(row.getSchema().getField("name").pos()).toString()));
    TableFiles files = TableFiles.count(table);
    boolean cleaned = !newestCompletedClean(table).equals(cleanBefore);
    synchronized (reads) {
      reads.add(new Read(names, files, cleaned));
    }
  }

  /**
   * The newest completed clean in the active timeline ({@code <requested>_<completed>.clean}); ""
   * if there is none. It changes when a clean completes (or when the archiver takes the newest
   * clean, which only makes a read count as outrun more often).
   */
  private static String newestCompletedClean(Path table) throws IOException {
    try (Stream<Path> files = Files.list(table.resolve(".hoodie/timeline"))) {
      return files
          .map(file -> file.getFileName().toString())
          .filter(name -> name.matches("\\d+_\\d+\\.clean"))
          .max(String::compareTo)
          .orElse("");
    }
  }

  private static boolean missingFile(Throwable e) {
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (cause instanceof java.io.FileNotFoundException) {
        return true;
      }
    }
    return false;
  }

  /** Reads that failed because the writer outran them (see the class comment). */
  int outrunReads() {
    return outrunReads;
  }

  /** The reads so far, oldest first. */
  List<Read> reads() {
    synchronized (reads) {
      return new ArrayList<>(reads);
    }
  }

  /** Stops reading; throws the failure of a read, if one failed. */
  @Override
  public void close() throws Exception {
    stopped = true;
    thread.interrupt();
    thread.join();
    if (failure != null) {
      throw new AssertionError("reading " + path + " while the job wrote it failed", failure);
    }
  }
}
