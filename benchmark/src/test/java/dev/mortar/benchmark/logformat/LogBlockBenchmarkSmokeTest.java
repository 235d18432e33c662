package dev.mortar.benchmark.logformat;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Collection;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/** CI smoke: the log block and file write benchmarks run in-process for every parameter. */
class LogBlockBenchmarkSmokeTest {
  @Test
  void everyCombinationProducesAThroughput() throws Exception {
    Collection<RunResult> results =
        new Runner(
                new OptionsBuilder()
                    .include(AvroBlockBenchmark.class.getName() + ".encodeBlock")
                    .include(ParquetBlockBenchmark.class.getName() + ".encodeBlock")
                    .include(LocalFileWriteBenchmark.class.getName() + ".writeBlock")
                    .forks(0)
                    .warmupIterations(0)
                    .measurementIterations(1)
                    .measurementTime(TimeValue.milliseconds(50))
                    .verbosity(VerboseMode.SILENT)
                    .build())
            .run();

    assertThat(results).hasSize(2 * 3 + 2 * 4 * 2 + 3);
    for (RunResult result : results) {
      assertThat(result.getPrimaryResult().getScore())
          .as(result.getParams().toString())
          .isPositive();
    }
  }
}
