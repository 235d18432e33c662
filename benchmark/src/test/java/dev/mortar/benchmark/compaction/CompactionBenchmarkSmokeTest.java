package dev.mortar.benchmark.compaction;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The compaction benchmark once on small tables of both schemas: both systems execute every plan
 * the writer left pending, write the same records, and Hudi's reader reads the same rows from both
 * compacted tables: every distinct key written, once.
 */
class CompactionBenchmarkSmokeTest {

  @Test
  void bothSystemsCompactEveryPlanAndReadBackTheSame(@TempDir Path dir) throws Exception {
    var flags = CompactionBenchmark.flags();
    flags.parse(
        new String[] {
          "--rows-schema1", "20000",
          "--rows-schema3", "2000",
          "--checkpoints", "3",
          "--repeats", "1",
          "--dir", dir.toString()
        });

    List<SchemaResult> results = CompactionBenchmark.run(flags, new PrintStream(System.out));

    assertThat(results).extracting(SchemaResult::schema).containsExactly("schema1", "schema3");
    for (SchemaResult result : results) {
      result.check();
      assertThat(result.plans().instants()).as(result.schema()).isNotEmpty();
      assertThat(result.leftPending())
          .as("plans left pending, %s", result.schema())
          .containsOnlyKeys("mortar", "hudi")
          .allSatisfy((system, pending) -> assertThat(pending).isEmpty());
      assertThat(result.readBack()).containsOnlyKeys("mortar", "hudi");
      assertThat(result.readBack().get("mortar"))
          .as("Mortar's table read back as Hudi's, %s", result.schema())
          .isEqualTo(result.readBack().get("hudi"));
      assertThat(result.readBack().get("mortar").keys()).isEqualTo(result.distinctKeys());
      // Key space = rows / 2: many keys were updated, so fewer keys than rows remain.
      assertThat(result.distinctKeys())
          .isLessThan(result.schema().equals("schema1") ? 20000 : 2000);
      CompactionFigures mortar = result.runsOf("mortar").get(0);
      CompactionFigures hudi = result.runsOf("hudi").get(0);
      assertThat(mortar.records()).isEqualTo(hudi.records()).isEqualTo(result.distinctKeys());
      assertThat(mortar.cpuNanos()).isPositive();
      assertThat(mortar.compactionThreadCpuNanos()).isPositive().isLessThan(mortar.cpuNanos());
      assertThat(hudi.compactionThreadCpuNanos()).isPositive().isLessThanOrEqualTo(hudi.cpuNanos());
      assertThat(mortar.inputBytes()).isPositive();
    }
    assertThat(ResultTable.markdown(results))
        .contains("| schema1 | mortar |", "| schema3 | hudi |");
  }
}
