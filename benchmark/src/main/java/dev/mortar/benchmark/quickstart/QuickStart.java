package dev.mortar.benchmark.quickstart;

import dev.mortar.benchmark.e2e.Flags;
import dev.mortar.benchmark.e2e.JobMetrics;
import dev.mortar.benchmark.e2e.JobTimeline;
import dev.mortar.benchmark.e2e.LocalFlink;
import dev.mortar.benchmark.e2e.RunSpec;
import dev.mortar.benchmark.e2e.TableFiles;
import dev.mortar.testing.HudiTableOracle;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;

/**
 * The quick-start main job ({@code bin/quickstart}): DataGen upserts of Schema1 (keys uniform in
 * [0, 100M)) into a fresh local Merge-On-Read table through the Mortar SQL connector on an embedded
 * MiniCluster, with progress lines while it runs, a summary, and the table read back by Hudi's own
 * reader.
 */
public final class QuickStart {
  private QuickStart() {}

  static Flags flags() {
    String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
    return new Flags("quickstart")
        .declare("rows", "3M", "rows DataGen emits (keys uniform in [0, 100M))")
        .declare("parallelism", "2", "parallelism of source and writer")
        .declare("buckets", "4", "fixed buckets (file groups) of the table")
        .declare("format", "avro", "log block format: avro or parquet")
        .declare("checkpoint-ms", "10000", "checkpoint interval: one delta commit per checkpoint")
        .declare("path", "mortar-quickstart/" + stamp, "the table's folder (must not exist)");
  }

  public static void main(String[] args) throws Exception {
    Flags flags = flags();
    if (!flags.parse(args)) {
      return;
    }
    System.exit(run(flags) > 0 ? 0 : 1);
  }

  /** Runs the job and the read-back; returns the rows Hudi's reader found. */
  static long run(Flags flags) throws Exception {
    Path table = Path.of(flags.get("path")).toAbsolutePath();
    if (Files.exists(table)) {
      throw new IllegalArgumentException(
          "--path " + table + " exists; the quick start writes a fresh table, pick another --path");
    }
    String system = "mortar-" + flags.get("format");
    Flags runFlags = RunSpec.flags();
    runFlags.parse(
        new String[] {
          "--system", system,
          "--workload", "schema1",
          "--rows", flags.get("rows"),
          "--warmup-rows", "0",
          "--parallelism", flags.get("parallelism"),
          "--buckets", flags.get("buckets"),
          "--checkpoint-ms", flags.get("checkpoint-ms")
        });
    RunSpec spec = RunSpec.fromFlags(runFlags);
    System.out.printf(
        Locale.ROOT,
        "[quickstart] writing %,d Schema1 upserts into %s (%s log blocks, %d buckets, parallelism"
            + " %d)%n",
        spec.rows(),
        table,
        flags.get("format"),
        spec.buckets(),
        spec.parallelism());

    long start = System.nanoTime();
    Progress progress = new Progress(start, table);
    double writingSeconds;
    try (LocalFlink flink = LocalFlink.start(spec);
        JobTimeline timeline = JobTimeline.start()) {
      flink.runJob(spec.rows(), table, progress::print);
      timeline.stop();
      writingSeconds = timeline.window().wallNanos() / 1e9;
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    System.out.printf(
        Locale.ROOT,
        "[quickstart] done: %,d rows in %.1f s; from the source's first row to the last commit"
            + " %.1f s = %,.0f rows/s (the rest is starting the MiniCluster and planning the job);"
            + " %d commits, %d log files, %,.1f MB on disk%n",
        spec.rows(),
        seconds,
        writingSeconds,
        spec.rows() / writingSeconds,
        completedCommits(table),
        logFiles(table),
        TableFiles.bytesOnDisk(table) / 1e6);

    long readStart = System.nanoTime();
    // Hudi's own reader over the committed file slices; it fails if a key is in two file groups.
    long rows =
        HudiTableOracle.forEachRow(
            table.toUri().toString(), new Configuration(), (key, row, slice) -> {});
    System.out.printf(
        Locale.ROOT,
        "[quickstart] Hudi's reader (HoodieFileGroupReader) reads %,d rows = distinct keys (%.1f s)%n",
        rows,
        (System.nanoTime() - readStart) / 1e9);
    System.out.println("[quickstart] table: " + table);
    return rows;
  }

  /** Prints a progress line: rows so far, the rate since the last line, commits so far. */
  private static final class Progress {
    private final long start;
    private final Path table;
    private long lastNanos;
    private long lastRows;

    Progress(long start, Path table) {
      this.start = start;
      this.table = table;
      this.lastNanos = start;
    }

    void print() {
      long now = System.nanoTime();
      long rows = JobMetrics.emitted();
      System.out.printf(
          Locale.ROOT,
          "[quickstart] %5.1f s: %,d rows (%,.0f rows/s), %d commits%n",
          (now - start) / 1e9,
          rows,
          (rows - lastRows) / ((now - lastNanos) / 1e9),
          completedCommits(table));
      lastNanos = now;
      lastRows = rows;
    }
  }

  /** Completed delta commits: {@code <requested>_<completed>.deltacommit} in the timeline. */
  static long completedCommits(Path table) {
    Path timeline = table.resolve(".hoodie").resolve("timeline");
    if (!Files.isDirectory(timeline)) {
      return 0;
    }
    try (Stream<Path> files = Files.list(timeline)) {
      return files.filter(file -> file.getFileName().toString().endsWith(".deltacommit")).count();
    } catch (IOException e) {
      return 0;
    }
  }

  private static long logFiles(Path table) throws IOException {
    try (Stream<Path> files = Files.walk(table)) {
      return files
          .map(file -> file.getFileName().toString())
          .filter(name -> name.contains(".log.") && !name.endsWith(".crc"))
          .count();
    }
  }
}
