package dev.mortar.benchmark.e2e;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The end-to-end DataGen upsert benchmark (issue 6): runs every system on every variant in a fresh
 * JVM each, alternating systems within each repeat (A B C A B C …), and writes {@code
 * results.json}, {@code results.md} and PNG charts into {@code <out>/<timestamp>/}.
 *
 * <p>{@code java -jar benchmark/target/mortar-benchmarks.jar e2e --help} lists the flags.
 */
public final class Harness {
  private Harness() {}

  static Flags flags() {
    return new Flags("e2e")
        .declare(
            "systems",
            "blackhole,mortar-avro,mortar-parquet,paimon",
            "systems to compare: "
                + SystemUnderTest.flagNames(", ")
                + " (mortar-avro-compacting compacts every 5 delta commits: pick --checkpoint-ms"
                + " so that a job spans more than 5 checkpoints)")
        .declare(
            "workloads",
            "schema1,schema3",
            "schema1..schema4 and/or size<bytes> (record-size sweep, e.g. size100,size1024)")
        .declare(
            "rows",
            "",
            "rows per measured job: one number for all, or per workload (schema1=2M,schema3=200k);"
                + " unset workloads: schema1 2M, schema2 400k, schema3 200k, schema4 100k,"
                + " size<B> min(2M, 400 MB / B)")
        .declare("warmup-factor", "0.5", "warm-up job rows as a fraction of the measured rows")
        .declare("parallelism", "1,2", "parallelism values to run (source and sink)")
        .declare("buckets", "0", "fixed buckets of the tables (0 = the parallelism)")
        .declare("checkpoint-ms", "20000", "checkpoint interval")
        .declare("object-reuse", "false", "pipeline.object-reuse values to run, e.g. false,true")
        .declare("shuffled", "false", "keyed shuffle in front of the sink: false (fused), true")
        .declare("repeats", "3", "repeats of every system on every variant")
        .declare("heap", "3g", "heap of every child JVM (-Xms = -Xmx)")
        .declare("jvm-args", "", "extra JVM flags for every child, space-separated")
        .declare("run-timeout-s", "900", "a child JVM running longer fails")
        .declare("out", "benchmark/results", "results go to <out>/<UTC timestamp>/")
        .declare("work-dir", System.getProperty("java.io.tmpdir"), "where tables are written");
  }

  public static void main(String[] args) throws Exception {
    Flags flags = flags();
    if (!flags.parse(args)) {
      return;
    }
    Path dir = run(flags, String.join(" ", args));
    System.out.println("[e2e] results in " + dir.toAbsolutePath());
  }

  /** Runs the plan of {@code flags}; returns the results directory. */
  static Path run(Flags flags, String commandLine) throws Exception {
    String stamp =
        DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")
            .withZone(ZoneOffset.UTC)
            .format(Instant.now());
    Path dir = Path.of(flags.get("out")).resolve(stamp);
    Files.createDirectories(dir);
    List<String> extraJvm = new ArrayList<>();
    for (String arg : flags.get("jvm-args").split(" ")) {
      if (!arg.isBlank()) {
        extraJvm.add(arg);
      }
    }
    ChildJvm jvm =
        new ChildJvm(
            flags.get("heap"), extraJvm, flags.getLong("run-timeout-s"), dir.resolve("logs"));
    List<RunSpec> plan = plan(flags);
    List<ChildJvm.Outcome> outcomes = new ArrayList<>();
    int done = 0;
    for (RunSpec spec : plan) {
      System.out.printf(
          Locale.ROOT,
          "[e2e] %d/%d %s %s repeat %d (%d rows) ...%n",
          ++done,
          plan.size(),
          spec.variant(),
          spec.system().flagName(),
          spec.repeat(),
          spec.rows());
      ChildJvm.Outcome outcome = jvm.run(spec);
      outcomes.add(outcome);
      if (outcome.figures() != null) {
        RunFigures f = outcome.figures();
        System.out.printf(
            Locale.ROOT,
            "[e2e]   %.0f rows/s end to end, %.0f steady, %.2f CPU s per M rows, leak-free %s%n",
            f.endToEndRowsPerSec(),
            f.steadyRowsPerSec(),
            f.cpuSecPerMillionRows(),
            f.leakFree());
        if (!f.filesLeft().isEmpty()) {
          System.out.println("[e2e]   files left: " + f.filesLeft());
        }
      } else {
        System.out.println(
            "[e2e]   FAILED: " + outcome.failure() + " (log: " + outcome.log() + ")");
      }
    }
    Report report = Report.of(commandLine, jvm.jvmFlags(), outcomes);
    report.write(dir);
    Charts.write(report, dir);
    return dir;
  }

  /**
   * Every run in order: variants one after the other; within a variant, repeat by repeat, every
   * system once (A B C A B C …), so that drifts of a shared machine hit all systems alike.
   */
  static List<RunSpec> plan(Flags flags) {
    Map<String, Long> rows = rowsPerWorkload(flags.get("rows"));
    List<SystemUnderTest> systems = new ArrayList<>();
    for (String name : flags.getList("systems")) {
      systems.add(SystemUnderTest.parse(name));
    }
    double warmupFactor = Double.parseDouble(flags.get("warmup-factor"));
    Path workDir = Path.of(flags.get("work-dir"));
    List<RunSpec> plan = new ArrayList<>();
    for (String workloadName : flags.getList("workloads")) {
      Workload workload = Workload.parse(workloadName);
      long n = rows.getOrDefault(workload.name(), rows.getOrDefault("*", defaultRows(workload)));
      for (String parallelism : flags.getList("parallelism")) {
        for (String reuse : flags.getList("object-reuse")) {
          for (String shuffled : flags.getList("shuffled")) {
            for (int repeat = 0; repeat < flags.getInt("repeats"); repeat++) {
              for (SystemUnderTest system : systems) {
                int p = Integer.parseInt(parallelism);
                int buckets = flags.getInt("buckets");
                plan.add(
                    new RunSpec(
                        system,
                        workload,
                        n,
                        Math.round(n * warmupFactor),
                        p,
                        buckets > 0 ? buckets : p,
                        flags.getLong("checkpoint-ms"),
                        Boolean.parseBoolean(reuse),
                        Boolean.parseBoolean(shuffled),
                        repeat,
                        workDir));
              }
            }
          }
        }
      }
    }
    return plan;
  }

  /** Parses {@code --rows}: {@code 2M} (key "*") or {@code schema1=2M,schema3=200k}. */
  static Map<String, Long> rowsPerWorkload(String text) {
    Map<String, Long> rows = new HashMap<>();
    for (String item : text.split(",")) {
      if (item.isBlank()) {
        continue;
      }
      int equals = item.indexOf('=');
      if (equals < 0) {
        rows.put("*", Flags.parseNumber("rows", item));
      } else {
        String workload = Workload.parse(item.substring(0, equals).trim()).name();
        rows.put(workload, Flags.parseNumber("rows", item.substring(equals + 1)));
      }
    }
    return rows;
  }

  /** Rows sized so that each system's job lasts seconds to tens of seconds on 2 cores. */
  static long defaultRows(Workload workload) {
    return switch (workload.name()) {
      case "schema1" -> 2_000_000;
      case "schema2" -> 400_000;
      case "schema3" -> 200_000;
      case "schema4" -> 100_000;
      default -> Math.min(2_000_000, Math.round(400e6 / workload.logicalBytesPerRow()));
    };
  }
}
