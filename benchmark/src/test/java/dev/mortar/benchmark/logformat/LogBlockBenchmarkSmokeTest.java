package dev.mortar.benchmark.logformat;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mortar.benchmark.JmhSmoke;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.runner.options.TimeValue;

/** CI smoke: the log block and file write benchmarks run in-process for every parameter. */
class LogBlockBenchmarkSmokeTest {
  @Test
  void everyCombinationProducesAThroughput() throws Exception {
    assertThat(
            JmhSmoke.run(
                JmhSmoke.options(
                        AvroBlockBenchmark.class.getName() + ".encodeBlock",
                        TimeValue.milliseconds(50))
                    .include(ParquetBlockBenchmark.class.getName() + ".encodeBlock")
                    .include(LocalFileWriteBenchmark.class.getName() + ".writeBlock")
                    .warmupIterations(0)))
        .hasSize(2 * 3 + 2 * 4 * 2 * ParquetBlockContender.values().length + 3);
  }
}
