package dev.mortar.benchmark.e2e;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import java.util.function.ToDoubleFunction;
import org.apache.flink.runtime.util.EnvironmentInformation;

/**
 * The figures of one harness run and their summary per variant and system: medians with min and max
 * over repeats, and ratios taken repeat by repeat against Paimon and against the blackhole (runs of
 * the same repeat ran back to back). Written as {@code results.json} and {@code results.md}.
 */
public record Report(
    String command,
    Machine machine,
    Software software,
    List<String> jvmFlags,
    List<RunFigures> runs,
    List<Failure> failures,
    List<Row> summary) {

  /** Where the figures come from. */
  public record Machine(String cpu, int cpus, long memoryBytes, String os, String java) {
    static Machine current() {
      String cpu = "unknown";
      try {
        cpu =
            Files.readAllLines(Path.of("/proc/cpuinfo")).stream()
                .filter(line -> line.startsWith("model name"))
                .map(line -> line.substring(line.indexOf(':') + 1).trim())
                .findFirst()
                .orElse(cpu);
      } catch (IOException | RuntimeException ignored) {
        // not Linux: leave "unknown"
      }
      var os =
          (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
      return new Machine(
          cpu,
          Runtime.getRuntime().availableProcessors(),
          os.getTotalMemorySize(),
          System.getProperty("os.name") + " " + System.getProperty("os.version"),
          System.getProperty("java.vm.name") + " " + System.getProperty("java.version"));
    }
  }

  /**
   * The Flink and Paimon versions on the class path the harness and its child JVMs share: the Flink
   * line the benchmark jar was built for ({@code bin/benchmark --flink}).
   *
   * @param paimon the version of Paimon's Flink connector, or "none" without one
   */
  public record Software(String flink, String paimon) {
    private static final String PAIMON_POM =
        "META-INF/maven/org.apache.paimon/paimon-flink-common/pom.properties";

    static Software current() {
      String paimon = "none";
      try (InputStream pom = Report.class.getClassLoader().getResourceAsStream(PAIMON_POM)) {
        if (pom != null) {
          Properties properties = new Properties();
          properties.load(pom);
          paimon = properties.getProperty("version");
        }
      } catch (IOException e) {
        throw new UncheckedIOException("reading " + PAIMON_POM + " from the class path", e);
      }
      return new Software(EnvironmentInformation.getVersion(), paimon);
    }
  }

  /** A run that produced no figures. */
  public record Failure(String variant, String system, int repeat, String reason, String log) {}

  /**
   * One system on one variant over its repeats.
   *
   * @param cpuAboveSource CPU s per million rows minus the blackhole's, repeat by repeat
   * @param vsPaimon end-to-end rows/s divided by Paimon's, repeat by repeat: a compacting system's
   *     by {@code paimon-compacting}'s when that ran, every other system's by {@code paimon}'s
   * @param vsBlackhole end-to-end rows/s divided by the blackhole's, repeat by repeat
   * @param cpuByThread CPU µs per row by thread group ({@link CpuByThread}), over repeats
   * @param filesLeft what the last repeat's job left in its table ({@link RunFigures#filesLeft})
   */
  public record Row(
      String variant,
      String system,
      Spread endToEndRowsPerSec,
      Spread steadyRowsPerSec,
      Spread logicalMBPerSec,
      Spread cpuSecPerMillionRows,
      Spread cpuAboveSource,
      Spread gcMillis,
      Spread peakHeapMB,
      Spread diskMB,
      Spread tailSeconds,
      Spread vsPaimon,
      Spread vsBlackhole,
      boolean leakFree,
      Map<String, Spread> cpuByThread,
      Map<String, Long> filesLeft) {}

  static Report of(String command, List<String> jvmFlags, List<ChildJvm.Outcome> outcomes) {
    List<RunFigures> runs = new ArrayList<>();
    List<Failure> failures = new ArrayList<>();
    for (ChildJvm.Outcome outcome : outcomes) {
      if (outcome.figures() != null) {
        runs.add(outcome.figures());
      } else {
        RunSpec spec = outcome.spec();
        failures.add(
            new Failure(
                spec.variant(),
                spec.system().flagName(),
                spec.repeat(),
                outcome.failure(),
                outcome.log().toString()));
      }
    }
    return new Report(
        command, Machine.current(), Software.current(), jvmFlags, runs, failures, summarize(runs));
  }

  private static List<Row> summarize(List<RunFigures> runs) {
    Map<String, Map<String, List<RunFigures>>> byVariant = new LinkedHashMap<>();
    for (RunFigures run : runs) {
      byVariant
          .computeIfAbsent(run.variant(), v -> new LinkedHashMap<>())
          .computeIfAbsent(run.system(), s -> new ArrayList<>())
          .add(run);
    }
    List<Row> rows = new ArrayList<>();
    byVariant.forEach(
        (variant, bySystem) -> {
          List<RunFigures> paimon = bySystem.getOrDefault("paimon", List.of());
          List<RunFigures> paimonCompacting = bySystem.getOrDefault("paimon-compacting", List.of());
          List<RunFigures> blackhole = bySystem.getOrDefault("blackhole", List.of());
          bySystem.forEach(
              (system, list) ->
                  rows.add(
                      new Row(
                          variant,
                          system,
                          spread(list, RunFigures::endToEndRowsPerSec),
                          spread(list, RunFigures::steadyRowsPerSec),
                          spread(list, RunFigures::logicalMBPerSec),
                          spread(list, RunFigures::cpuSecPerMillionRows),
                          paired(
                              list,
                              blackhole,
                              (a, b) -> a.cpuSecPerMillionRows() - b.cpuSecPerMillionRows()),
                          spread(list, RunFigures::gcMillis),
                          spread(list, f -> f.peakHeapBytes() / 1048576.0),
                          spread(list, f -> f.bytesOnDisk() / 1048576.0),
                          spread(list, RunFigures::tailSeconds),
                          paired(
                              list,
                              system.endsWith("-compacting") && !paimonCompacting.isEmpty()
                                  ? paimonCompacting
                                  : paimon,
                              (a, b) -> a.endToEndRowsPerSec() / b.endToEndRowsPerSec()),
                          paired(
                              list,
                              blackhole,
                              (a, b) -> a.endToEndRowsPerSec() / b.endToEndRowsPerSec()),
                          list.stream().allMatch(RunFigures::leakFree),
                          cpuByThread(list),
                          list.get(list.size() - 1).filesLeft())));
        });
    return rows;
  }

  /** Each thread group's CPU µs per row over {@code runs}, in report order. */
  private static Map<String, Spread> cpuByThread(List<RunFigures> runs) {
    Map<String, Spread> spreads = new LinkedHashMap<>();
    for (String group : CpuByThread.GROUPS) {
      spreads.put(
          group, spread(runs, run -> run.cpuMicrosPerRowByThread().getOrDefault(group, 0.0)));
    }
    return spreads;
  }

  private static Spread spread(List<RunFigures> runs, ToDoubleFunction<RunFigures> figure) {
    List<Double> values = new ArrayList<>();
    runs.forEach(run -> values.add(figure.applyAsDouble(run)));
    return Spread.of(values);
  }

  /** A figure of {@code runs} against {@code others} of the same repeat; null without pairs. */
  private static Spread paired(
      List<RunFigures> runs,
      List<RunFigures> others,
      java.util.function.ToDoubleBiFunction<RunFigures, RunFigures> figure) {
    List<Double> values = new ArrayList<>();
    for (RunFigures run : runs) {
      for (RunFigures other : others) {
        if (other.repeat() == run.repeat()) {
          values.add(figure.applyAsDouble(run, other));
        }
      }
    }
    return Spread.of(values);
  }

  /** Writes {@code results.json} and {@code results.md} into {@code dir}. */
  void write(Path dir) throws IOException {
    Json.MAPPER.writeValue(dir.resolve("results.json").toFile(), this);
    Files.writeString(dir.resolve("results.md"), markdown());
  }

  /** The Markdown report: machine, command, one table per variant, failures, definitions. */
  String markdown() {
    StringBuilder md = new StringBuilder("# Mortar end-to-end upsert benchmark\n\n");
    md.append("- command: `").append(command).append("`\n");
    md.append(
        String.format(
            "- machine: %s, %d CPUs, %.0f GB RAM, %s, %s%n",
            machine.cpu(),
            machine.cpus(),
            machine.memoryBytes() / 1e9,
            machine.os(),
            machine.java()));
    md.append(String.format("- Flink %s, Paimon %s%n", software.flink(), software.paimon()));
    md.append("- every run in its own JVM: `")
        .append(String.join(" ", jvmFlags).replaceAll("--add-opens=\\S+ ?", ""))
        .append("` (+ Flink's --add-opens list)\n\n");
    Set<String> variants = new LinkedHashSet<>();
    summary.forEach(row -> variants.add(row.variant()));
    for (String variant : variants) {
      md.append("## ").append(variant).append("\n\n");
      md.append(
          "| system | rows/s end to end | rows/s steady | logical MB/s | CPU s / M rows |"
              + " CPU above source | GC ms | peak heap MB | on disk MB | tail s |"
              + " vs Paimon | vs blackhole | leak check |\n");
      md.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
      for (Row row : summary) {
        if (!row.variant().equals(variant)) {
          continue;
        }
        md.append("| ")
            .append(row.system())
            .append(" | ")
            .append(cell(row.endToEndRowsPerSec(), "%,.0f"))
            .append(" | ")
            .append(cell(row.steadyRowsPerSec(), "%,.0f"))
            .append(" | ")
            .append(cell(row.logicalMBPerSec(), "%.1f"))
            .append(" | ")
            .append(cell(row.cpuSecPerMillionRows(), "%.2f"))
            .append(" | ")
            .append(cell(row.cpuAboveSource(), "%.2f"))
            .append(" | ")
            .append(cell(row.gcMillis(), "%.0f"))
            .append(" | ")
            .append(cell(row.peakHeapMB(), "%.0f"))
            .append(" | ")
            .append(cell(row.diskMB(), "%.1f"))
            .append(" | ")
            .append(cell(row.tailSeconds(), "%.1f"))
            .append(" | ")
            .append(cell(row.vsPaimon(), "%.2f×"))
            .append(" | ")
            .append(cell(row.vsBlackhole(), "%.2f×"))
            .append(" | ")
            .append(row.leakFree() ? "ok" : "**LEAK**")
            .append(" |\n");
      }
      md.append('\n');
      appendCpuByThread(md, variant);
      appendFilesLeft(md, variant);
    }
    if (!failures.isEmpty()) {
      md.append("## Failed runs\n\n| variant | system | repeat | reason |\n|---|---|---|---|\n");
      for (Failure failure : failures) {
        md.append(
            String.format(
                "| %s | %s | %d | %s |%n",
                failure.variant(),
                failure.system(),
                failure.repeat(),
                failure.reason().replace('|', '/')));
      }
      md.append('\n');
    }
    md.append(
        "Cells: median [min–max] over repeats. End to end = rows ÷ (source's first row → job"
            + " finished, last flush and commit included); steady = the source's rate between 10 %"
            + " and 90 % of its rows (back-pressured by the sink); CPU = process CPU of all threads"
            + " over the same window; CPU above source = minus the blackhole's, repeat by repeat;"
            + " tail = source's last row → job end; ratios are taken repeat by repeat (runs of a"
            + " repeat ran back to back); a compacting system's vs Paimon is against"
            + " paimon-compacting when that ran. CPU by thread: over the whole measured job, each"
            + " thread's own CPU time by its name (the source task holds every operator chained to"
            + " the source; GC and JIT are the JVM's threads, read from /proc on Linux; JVM other is"
            + " the process's CPU minus every group before it). Leak check: writer pools report no pages out and heap"
            + " after full GC within "
            + (RunOne.LEAK_MARGIN_BYTES >> 20)
            + " MiB of its level after the warm-up job.\n");
    return md.toString();
  }

  /** The CPU µs per row of each thread group, one line per system of {@code variant}. */
  private void appendCpuByThread(StringBuilder md, String variant) {
    md.append("CPU µs per row by thread, whole job:\n\n| system | ")
        .append(String.join(" | ", CpuByThread.GROUPS))
        .append(" |\n|---|")
        .append("---|".repeat(CpuByThread.GROUPS.length))
        .append('\n');
    for (Row row : summary) {
      if (row.variant().equals(variant)) {
        md.append("| ").append(row.system()).append(" |");
        row.cpuByThread()
            .values()
            .forEach(spread -> md.append(' ').append(cell(spread, "%.1f")).append(" |"));
        md.append('\n');
      }
    }
    md.append('\n');
  }

  /** One line per table-writing system of {@code variant}: what its last repeat left on disk. */
  private void appendFilesLeft(StringBuilder md, String variant) {
    List<String> lines = new ArrayList<>();
    for (Row row : summary) {
      if (row.variant().equals(variant) && row.filesLeft() != null && !row.filesLeft().isEmpty()) {
        List<String> counts = new ArrayList<>();
        row.filesLeft().forEach((name, count) -> counts.add(name + " " + count));
        lines.add("- " + row.system() + ": " + String.join(", ", counts) + "\n");
      }
    }
    if (!lines.isEmpty()) {
      md.append("Files left in the table after the last repeat:\n\n");
      lines.forEach(md::append);
      md.append('\n');
    }
  }

  private static String cell(Spread spread, String format) {
    return spread == null ? "–" : Objects.requireNonNull(spread.format(format));
  }
}
