package dev.mortar.benchmark.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The report's summary: spreads over repeats and ratios taken repeat by repeat. */
class ReportTest {

  @Test
  void ratiosPairRunsOfTheSameRepeat() {
    List<ChildJvm.Outcome> outcomes = new ArrayList<>();
    double[] paimon = {100, 200, 50};
    double[] mortar = {300, 400, 200};
    double[] blackhole = {600, 500, 400};
    for (int repeat = 0; repeat < 3; repeat++) {
      outcomes.add(outcome("blackhole", repeat, blackhole[repeat], 2.0));
      outcomes.add(outcome("mortar-avro", repeat, mortar[repeat], 5.0 + repeat));
      outcomes.add(outcome("paimon", repeat, paimon[repeat], 9.0));
    }

    Report report = Report.of("test", List.of("-Xmx1g"), outcomes);

    Report.Row row = report.summary().get(1);
    assertThat(row.system()).isEqualTo("mortar-avro");
    assertThat(row.endToEndRowsPerSec()).isEqualTo(new Spread(200, 300, 400, 3));
    // 300/100, 400/200, 200/50: repeat by repeat, not median over median (300/100).
    assertThat(row.vsPaimon()).isEqualTo(new Spread(2, 3, 4, 3));
    assertThat(row.vsBlackhole()).isEqualTo(new Spread(0.5, 0.5, 0.8, 3));
    assertThat(row.cpuAboveSource()).isEqualTo(new Spread(3, 4, 5, 3));
    assertThat(report.markdown())
        .contains("## schema1 P=1")
        .contains("| mortar-avro | 300 [200–400] |")
        .contains("3.00× [2.00×–4.00×]")
        .contains("- mortar-avro: log files 12\n", "- paimon: log files 12\n")
        .contains("| mortar-avro | 51.0 [50.0–52.0] | 0.0 [0.0–0.0] |")
        .doesNotContain("- blackhole");
  }

  @Test
  void pairsCompactingSystemsWithCompactingPaimon() {
    List<ChildJvm.Outcome> outcomes =
        List.of(
            outcome("mortar-avro", 0, 300, 5),
            outcome("mortar-avro-compacting", 0, 200, 5),
            outcome("paimon", 0, 100, 9),
            outcome("paimon-compacting", 0, 50, 9));

    List<Report.Row> rows = Report.of("test", List.of(), outcomes).summary();

    assertThat(rows.get(0).vsPaimon()).isEqualTo(new Spread(3, 3, 3, 1));
    assertThat(rows.get(1).vsPaimon()).isEqualTo(new Spread(4, 4, 4, 1));
    assertThat(rows.get(3).vsPaimon()).isEqualTo(new Spread(1, 1, 1, 1));
  }

  @Test
  void listsFailedRuns() {
    RunSpec spec = spec("paimon", 0);
    Report report =
        Report.of(
            "test",
            List.of(),
            List.of(
                new ChildJvm.Outcome(spec, null, "exit code 1, no figures: boom", Path.of("x"))));

    assertThat(report.failures()).hasSize(1);
    assertThat(report.markdown()).contains("## Failed runs").contains("boom");
  }

  private static ChildJvm.Outcome outcome(
      String system, int repeat, double rowsPerSec, double cpuPerMillion) {
    RunSpec spec = spec(system, repeat);
    RunFigures figures =
        new RunFigures(
            system,
            "schema1",
            spec.variant(),
            1,
            1,
            false,
            false,
            repeat,
            1000,
            1,
            2,
            0.1,
            rowsPerSec,
            rowsPerSec,
            1,
            1,
            cpuPerMillion,
            1,
            Map.of(CpuByThread.SOURCE_TASK, 50.0 + repeat, CpuByThread.GC, 4.0),
            0,
            0,
            1,
            1,
            1,
            1,
            1,
            0,
            true,
            system.equals("blackhole") ? Map.of() : Map.of("log files", 10L + repeat));
    return new ChildJvm.Outcome(spec, figures, null, Path.of("log"));
  }

  private static RunSpec spec(String system, int repeat) {
    return new RunSpec(
        SystemUnderTest.parse(system),
        Workload.parse("schema1"),
        1000,
        0,
        1,
        1,
        20000,
        false,
        false,
        repeat,
        Path.of("/tmp"));
  }
}
