package dev.mortar.benchmark.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The benchmark's CI smoke test: the real harness (one child JVM per system) on a tiny workload,
 * then the report's files and figures.
 */
class HarnessSmokeTest {
  private static final long ROWS = 3000;

  @Test
  void runsEverySystemInItsOwnJvmAndWritesTheReport(@TempDir Path temp) throws Exception {
    List<String> systems = List.of("blackhole", "mortar-avro", "paimon");
    Flags flags = Harness.flags();
    flags.parse(
        new String[] {
          "--systems", String.join(",", systems),
          "--workloads", "schema1",
          "--rows", Long.toString(ROWS),
          "--warmup-factor", "0",
          "--parallelism", "1",
          "--repeats", "1",
          "--checkpoint-ms", "2000",
          "--heap", "512m",
          "--run-timeout-s", "300",
          "--out", temp.resolve("results").toString(),
          "--work-dir", temp.resolve("work").toString()
        });

    Path dir = Harness.run(flags, "smoke");

    JsonNode results = Json.MAPPER.readTree(dir.resolve("results.json").toFile());
    assertThat(results.get("failures")).as(results.get("failures").toString()).isEmpty();
    // The line the module's build put on the class path (surefire's system properties).
    JsonNode software = results.get("software");
    assertThat(software.get("flink").asText())
        .isEqualTo(System.getProperty("mortar.flink.version"));
    assertThat(software.get("paimon").asText())
        .isEqualTo(System.getProperty("mortar.paimon.version"));
    List<String> ran = new ArrayList<>();
    for (JsonNode run : results.get("runs")) {
      ran.add(run.get("system").asText());
      assertThat(run.get("rows").asLong()).isEqualTo(ROWS);
      assertThat(run.get("endToEndRowsPerSec").asDouble()).isPositive();
      assertThat(run.get("cpuSecPerMillionRows").asDouble()).isPositive();
      assertThat(run.get("leakFree").asBoolean()).as(run.toString()).isTrue();
      if (run.get("system").asText().startsWith("mortar")) {
        assertThat(run.get("poolBytesOut").asLong()).as("Mortar's pools after the job").isZero();
      }
      if (!run.get("system").asText().equals("blackhole")) {
        assertThat(run.get("bytesOnDisk").asLong()).as(run.toString()).isPositive();
        String written = run.get("system").asText().equals("paimon") ? "data files" : "log files";
        assertThat(run.get("filesLeft").get(written).asLong()).as(run.toString()).isPositive();
      }
    }
    assertThat(ran).containsExactlyElementsOf(systems);
    JsonNode mortar = results.get("summary").get(1);
    assertThat(mortar.get("system").asText()).isEqualTo("mortar-avro");
    assertThat(mortar.get("vsPaimon").get("median").asDouble()).isPositive();
    assertThat(mortar.get("vsBlackhole").get("median").asDouble()).isPositive();

    String markdown = Files.readString(dir.resolve("results.md"));
    assertThat(markdown)
        .contains(
            "## schema1 P=1",
            "| paimon |",
            "| mortar-avro |",
            "| blackhole |",
            "- Flink " + System.getProperty("mortar.flink.version") + ", Paimon ");
    for (String chart :
        List.of("throughput.png", "vs-blackhole.png", "cpu-per-row.png", "mb-per-s.png")) {
      byte[] png = Files.readAllBytes(dir.resolve(chart));
      assertThat(png.length).as(chart).isGreaterThan(1000);
      assertThat(new String(png, 1, 3, java.nio.charset.StandardCharsets.US_ASCII))
          .isEqualTo("PNG");
    }
  }
}
