package dev.mortar.benchmark.buffer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mortar.benchmark.JmhSmoke;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * CI smoke: every buffer benchmark runs in-process for a moment on Schema1 rows and reports a
 * throughput; the allocation profile already separates the page buffer (about nothing per record)
 * from the copying baseline (hundreds of bytes per record). The memory floors run on a buffer of 4
 * MiB.
 */
class BufferBenchmarkSmokeTest {
  @Test
  void everyContenderRunsAndTheBufferAllocatesNothingPerRecord() throws Exception {
    Map<String, Double> bytesPerRecord = smokeRun(BufferBenchmark.class);
    assertThat(bytesPerRecord)
        .containsOnlyKeys(
            "mortarDedup",
            "mortarDedupOnRead",
            "mortarNoDedup",
            "copiesInArrayList",
            "avroGenericRecords",
            "flinkSortBufferNoDedup");
    assertThat(bytesPerRecord.get("mortarDedup")).isLessThan(8.0);
    assertThat(bytesPerRecord.get("mortarDedupOnRead")).isLessThan(8.0);
    assertThat(bytesPerRecord.get("mortarNoDedup")).isLessThan(8.0);
    assertThat(bytesPerRecord.get("copiesInArrayList")).isGreaterThan(100.0);
  }

  @Test
  void bothHalvesOfTheCycleRunApart() throws Exception {
    Map<String, Double> bytesPerRecord = smokeRun(BufferPhasesBenchmark.class);
    assertThat(bytesPerRecord)
        .containsOnlyKeys("mortarAppend", "sortBufferAppend", "mortarIterate", "sortBufferIterate");
    assertThat(bytesPerRecord.get("mortarAppend")).isLessThan(8.0);
    assertThat(bytesPerRecord.get("mortarIterate")).isLessThan(8.0);
  }

  @Test
  void theMemoryFloorsRunOnASmallBuffer() throws Exception {
    Collection<RunResult> results =
        JmhSmoke.run(
            JmhSmoke.options(
                    MemoryFloorBenchmark.class.getName() + "\\.", TimeValue.milliseconds(200))
                .param("rowBytes", "5120")
                .param("bufferMiB", "4"));
    assertThat(results)
        .extracting(result -> result.getParams().getBenchmark().replaceAll(".*\\.", ""))
        .containsExactlyInAnyOrder(
            "appendToBuffer", "drainToBlock", "drainToBlockByField", "copyInCache");
  }

  /**
   * Runs every benchmark of {@code benchmarkClass} in-process for a moment on Schema1 rows, checks
   * each reports a throughput, and returns the bytes each allocated per record, by benchmark name.
   */
  private static Map<String, Double> smokeRun(Class<?> benchmarkClass) throws Exception {
    Collection<RunResult> results =
        JmhSmoke.run(
            JmhSmoke.options(benchmarkClass.getName() + "\\.", TimeValue.milliseconds(300))
                .param("schema", "SCHEMA1")
                .warmupTime(TimeValue.milliseconds(200))
                .addProfiler(GCProfiler.class));
    Map<String, Double> bytesPerRecord = new HashMap<>();
    for (RunResult result : results) {
      String name = result.getParams().getBenchmark().replaceAll(".*\\.", "");
      bytesPerRecord.put(name, result.getSecondaryResults().get("gc.alloc.rate.norm").getScore());
    }
    return bytesPerRecord;
  }
}
