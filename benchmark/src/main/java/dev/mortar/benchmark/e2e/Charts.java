package dev.mortar.benchmark.e2e;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;

/**
 * PNG bar charts of a {@link Report} (xchart): one bar per system for every variant, the median
 * over repeats. A system without figures for a variant shows no bar (value 0).
 */
final class Charts {
  private Charts() {}

  /**
   * Writes {@code throughput.png}, {@code vs-blackhole.png} (rows/s over the blackhole's of the
   * same repeat: one scale for every schema, where rows/s differ by 50×), {@code cpu-per-row.png}
   * and {@code mb-per-s.png}.
   */
  static void write(Report report, Path dir) throws IOException {
    System.setProperty("java.awt.headless", "true");
    chart(
        report,
        dir.resolve("throughput"),
        "Rows/s end to end (median)",
        "rows/s",
        Report.Row::endToEndRowsPerSec);
    chart(
        report,
        dir.resolve("vs-blackhole"),
        "Rows/s end to end over DataGen -> blackhole's (median of the repeats' ratios)",
        "x the blackhole",
        Report.Row::vsBlackhole);
    chart(
        report,
        dir.resolve("cpu-per-row"),
        "Process CPU per row (median)",
        "CPU µs per row",
        Report.Row::cpuSecPerMillionRows);
    chart(
        report,
        dir.resolve("mb-per-s"),
        "Logical MB/s, steady (median)",
        "MB/s",
        Report.Row::logicalMBPerSec);
  }

  private static void chart(
      Report report, Path file, String title, String yTitle, Function<Report.Row, Spread> figure)
      throws IOException {
    Set<String> variants = new LinkedHashSet<>();
    Set<String> systems = new LinkedHashSet<>();
    for (Report.Row row : report.summary()) {
      variants.add(row.variant());
      systems.add(row.system());
    }
    if (variants.isEmpty()) {
      return;
    }
    CategoryChart chart =
        new CategoryChartBuilder()
            .width(200 + 160 * variants.size())
            .height(500)
            .title(title)
            .xAxisTitle("workload and parallelism")
            .yAxisTitle(yTitle)
            .build();
    chart.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.OutsideE);
    for (String system : systems) {
      List<Double> values = new ArrayList<>();
      for (String variant : variants) {
        values.add(
            report.summary().stream()
                .filter(row -> row.system().equals(system) && row.variant().equals(variant))
                .map(figure)
                .filter(spread -> spread != null)
                .mapToDouble(Spread::median)
                .findFirst()
                .orElse(0));
      }
      chart.addSeries(system, new ArrayList<>(variants), values);
    }
    BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
  }
}
