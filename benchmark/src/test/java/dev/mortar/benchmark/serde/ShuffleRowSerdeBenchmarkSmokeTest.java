package dev.mortar.benchmark.serde;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Collection;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * CI smoke: both JMH benchmark methods run in-process for every schema and contender and report.
 */
class ShuffleRowSerdeBenchmarkSmokeTest {
  @ParameterizedTest
  @ValueSource(strings = {"roundTrip", "buildAndRoundTrip"})
  void everyCombinationProducesAThroughput(String method) throws Exception {
    // JMH's lock only guards the fidelity of figures; other modules' smoke tests may hold it.
    System.setProperty("jmh.ignoreLock", "true");
    Collection<RunResult> results =
        new Runner(
                new OptionsBuilder()
                    .include(ShuffleRowSerdeBenchmark.class.getName() + "\\." + method + "$")
                    .forks(0)
                    .warmupIterations(1)
                    .warmupTime(TimeValue.milliseconds(50))
                    .measurementIterations(1)
                    .measurementTime(TimeValue.milliseconds(50))
                    .verbosity(VerboseMode.SILENT)
                    .build())
            .run();

    assertThat(results).hasSize(2 * SerdeContender.values().length);
    for (RunResult result : results) {
      assertThat(result.getPrimaryResult().getScore())
          .as(result.getParams().toString())
          .isPositive();
    }
  }
}
