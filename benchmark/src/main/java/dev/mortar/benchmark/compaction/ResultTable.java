package dev.mortar.benchmark.compaction;

import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * The results as a Markdown table: per schema and system the median over its runs of each figure
 * (each column's median on its own), and Mortar's records per CPU second over Hudi's.
 */
final class ResultTable {
  private ResultTable() {}

  static String markdown(List<SchemaResult> results) {
    StringBuilder table =
        new StringBuilder(
            "| schema | system | records | input MB | wall s | CPU s | compaction thread CPU s"
                + " | records/s | MB/s | CPU s per M records | peak heap MB"
                + " | records per CPU s, Mortar / Hudi |\n"
                + "|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (SchemaResult result : results) {
      double hudi = median(result.runsOf("hudi"), CompactionFigures::recordsPerCpuSecond);
      for (String system : List.of("mortar", "hudi")) {
        List<CompactionFigures> runs = result.runsOf(system);
        if (runs.isEmpty()) {
          continue;
        }
        double perCpuSecond = median(runs, CompactionFigures::recordsPerCpuSecond);
        table.append(
            String.format(
                Locale.ROOT,
                "| %s | %s | %,d | %,.1f | %.2f | %.2f | %.2f | %,.0f | %.1f | %.2f | %,.0f | %s |%n",
                result.schema(),
                system,
                runs.get(0).records(),
                runs.get(0).inputBytes() / 1e6,
                median(runs, CompactionFigures::wallSeconds),
                median(runs, CompactionFigures::cpuSeconds),
                median(runs, CompactionFigures::compactionThreadCpuSeconds),
                median(runs, CompactionFigures::recordsPerSecond),
                median(runs, CompactionFigures::megabytesPerSecond),
                median(runs, CompactionFigures::cpuSecondsPerMillionRecords),
                median(runs, CompactionFigures::heapPeakMegabytes),
                system.equals("mortar")
                    ? String.format(Locale.ROOT, "%.2f×", perCpuSecond / hudi)
                    : ""));
      }
    }
    return table.toString();
  }

  /** The median of a figure over runs (the mean of the middle two for an even count). */
  static double median(List<CompactionFigures> runs, ToDoubleFunction<CompactionFigures> figure) {
    double[] values = runs.stream().mapToDouble(figure).sorted().toArray();
    int middle = values.length / 2;
    return values.length % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
  }
}
