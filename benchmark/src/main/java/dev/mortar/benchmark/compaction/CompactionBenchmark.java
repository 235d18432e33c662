package dev.mortar.benchmark.compaction;

import dev.mortar.benchmark.JavaThreads;
import dev.mortar.benchmark.ThreadCpuSampler;
import dev.mortar.benchmark.e2e.Flags;
import dev.mortar.benchmark.e2e.ProcessMeters;
import dev.mortar.benchmark.workload.WorkloadSchema;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.flink.configuration.MemorySize;

/**
 * The compaction throughput benchmark ({@code compaction} command of the benchmark jar): per
 * workload schema, Mortar writes a table whose one compaction plan covers every log file; then,
 * {@code repeats} times and in alternating order, Mortar's offline compactor and Hudi's Java client
 * each execute the plan on a fresh copy of the table, one compaction thread each, in this JVM.
 * Hudi's reader then reads both systems' compacted tables, which must hold the same rows.
 */
public final class CompactionBenchmark {
  /** How often the compaction threads' CPU time is read: a thread that ends loses at most this. */
  private static final long COMPACTION_THREAD_PERIOD_MILLIS = 10;

  private CompactionBenchmark() {}

  static Flags flags() {
    return new Flags("compaction")
        .declare("schemas", "schema1,schema3", "workload schemas, comma-separated")
        .declare("rows-schema1", "2M", "rows written into the Schema1 table")
        .declare("rows-schema2", "500k", "rows written into the Schema2 table")
        .declare("rows-schema3", "200k", "rows written into the Schema3 table")
        .declare("rows-schema4", "100k", "rows written into the Schema4 table")
        .declare("key-space", "0.5", "keys are uniform in [0, rows × this): below 1 gives updates")
        .declare("checkpoints", "5", "delta commits written = compaction.delta-commits")
        .declare("buckets", "4", "buckets (file groups) of each table")
        .declare("write-parallelism", "2", "parallelism of the job that writes the tables")
        .declare("repeats", "3", "compactions per system and schema, each on a fresh copy")
        .declare("mortar-memory", "", "Mortar's compaction.memory (empty: the option's default)")
        .declare("dir", "", "working folder for the tables (empty: a new temporary folder)")
        .declare("seed", "42", "seed of the rows");
  }

  public static void main(String[] args) throws Exception {
    Flags flags = flags();
    if (!flags.parse(args)) {
      return;
    }
    List<SchemaResult> results = run(flags, System.out);
    results.forEach(SchemaResult::check);
    System.out.println(ResultTable.markdown(results));
  }

  /** Runs every schema of {@code flags}; {@link SchemaResult#check()} judges each result. */
  static List<SchemaResult> run(Flags flags, PrintStream out) throws Exception {
    Path dir =
        flags.get("dir").isEmpty()
            ? Files.createTempDirectory("mortar-compaction-bench")
            : Files.createDirectories(Path.of(flags.get("dir")));
    String memory = flags.get("mortar-memory");
    List<Compactor> compactors =
        List.of(
            new MortarCompactor(memory.isEmpty() ? null : MemorySize.parse(memory)),
            new HudiCompactor());
    out.printf(
        Locale.ROOT,
        "[compaction] JVM -Xmx %,d MB, %d processors; tables in %s%n",
        Runtime.getRuntime().maxMemory() >> 20,
        Runtime.getRuntime().availableProcessors(),
        dir);
    List<SchemaResult> results = new ArrayList<>();
    for (String name : flags.getList("schemas")) {
      WorkloadSchema schema = WorkloadSchema.parse(name);
      long schemaRows = flags.getLong("rows-" + schema.name().toLowerCase());
      WorkloadTable table =
          new WorkloadTable(
              schema,
              schemaRows,
              keySpace(flags, schemaRows),
              flags.getInt("checkpoints"),
              flags.getInt("buckets"),
              flags.getLong("seed"));
      results.add(
          runSchema(
              table,
              dir.resolve(name),
              compactors,
              flags.getInt("repeats"),
              flags.getInt("write-parallelism"),
              out));
    }
    return results;
  }

  private static SchemaResult runSchema(
      WorkloadTable table,
      Path dir,
      List<Compactor> compactors,
      int repeats,
      int writeParallelism,
      PrintStream out)
      throws Exception {
    String schema = table.schema().name().toLowerCase();
    Path source = dir.resolve("written");
    long start = System.nanoTime();
    table.write(source.toUri().toString(), writeParallelism);
    PendingPlans plans = PendingPlans.of(source);
    if (plans.instants().isEmpty()) {
      throw new IllegalStateException(
          schema + ": the written table " + source + " has no pending compaction plan");
    }
    out.printf(
        Locale.ROOT,
        "[compaction] %s: wrote %,d rows in %.1f s; %d plan(s) %s over %d of the table's %d log"
            + " files, %,.1f MB to read%n",
        schema,
        table.rows(),
        (System.nanoTime() - start) / 1e9,
        plans.instants().size(),
        plans.instants(),
        plans.logFiles(),
        TableCopies.logFiles(source),
        plans.inputBytes() / 1e6);

    Map<String, TableChecksum> readBack = new LinkedHashMap<>();
    Map<String, List<String>> leftPending = new LinkedHashMap<>();
    List<CompactionFigures> runs = new ArrayList<>();
    for (int repeat = 0; repeat < repeats; repeat++) {
      for (int i = 0; i < compactors.size(); i++) {
        // Alternate the order: repeat 0 runs Mortar first, repeat 1 Hudi first, and so on.
        Compactor compactor = compactors.get((i + repeat) % compactors.size());
        Path copy = dir.resolve(compactor.name() + "-" + repeat);
        TableCopies.copy(source, copy);
        CompactionFigures figures = measure(schema, compactor, plans.in(copy));
        runs.add(figures);
        out.printf(
            Locale.ROOT,
            "[compaction] %s %s run %d: %,d records in %.2f s wall, %.2f s CPU (%.2f s on %s*),"
                + " peak heap %,.0f MB%n",
            schema,
            compactor.name(),
            repeat + 1,
            figures.records(),
            figures.wallSeconds(),
            figures.cpuSeconds(),
            figures.compactionThreadCpuSeconds(),
            compactor.compactionThreadPrefix(),
            figures.heapPeakMegabytes());
        List<String> pending = plans.in(copy).stillPending();
        leftPending.merge(compactor.name(), pending, CompactionBenchmark::concat);
        if (repeat == 0) {
          readBack.put(compactor.name(), TableChecksum.read(copy));
        }
        TableCopies.delete(copy);
      }
    }
    SchemaResult result =
        new SchemaResult(schema, plans, table.distinctKeys(), readBack, leftPending, runs);
    out.printf(Locale.ROOT, "[compaction] %s read back: %s%n", schema, readBack);
    return result;
  }

  /** Compacts the plans of {@code plans}' table with {@code compactor} and meters it. */
  private static CompactionFigures measure(String schema, Compactor compactor, PendingPlans plans)
      throws Exception {
    System.gc();
    ProcessMeters.resetHeapPeak();
    String prefix = compactor.compactionThreadPrefix();
    ThreadCpuSampler compactionThreads =
        ThreadCpuSampler.start(
            COMPACTION_THREAD_PERIOD_MILLIS,
            new JavaThreads(name -> name.startsWith(prefix) ? prefix : null));
    ProcessMeters.Reading spent;
    long compactionThreadNanos;
    try (compactionThreads) {
      ProcessMeters.Reading before = ProcessMeters.read();
      compactor.compactPending(plans.table());
      spent = ProcessMeters.read().minus(before);
      compactionThreadNanos = compactionThreads.stopAndSumByGroup().getOrDefault(prefix, 0L);
    }
    return new CompactionFigures(
        schema,
        compactor.name(),
        plans.recordsWritten(),
        plans.inputBytes(),
        spent.wallNanos(),
        spent.cpuNanos(),
        compactionThreadNanos,
        ProcessMeters.heapPeakBytes());
  }

  private static long keySpace(Flags flags, long rows) {
    double fraction = Double.parseDouble(flags.get("key-space"));
    long keys = (long) Math.ceil(rows * fraction);
    if (keys < 1 || keys > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(
          "--key-space "
              + flags.get("key-space")
              + " gives "
              + keys
              + " keys for "
              + rows
              + " rows; expected 1 to "
              + Integer.MAX_VALUE);
    }
    return keys;
  }

  private static List<String> concat(List<String> a, List<String> b) {
    return Stream.concat(a.stream(), b.stream()).sorted(Comparator.naturalOrder()).toList();
  }
}
