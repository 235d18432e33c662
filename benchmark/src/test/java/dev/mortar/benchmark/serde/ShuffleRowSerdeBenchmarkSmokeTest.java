package dev.mortar.benchmark.serde;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mortar.benchmark.JmhSmoke;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * CI smoke: both JMH benchmark methods run in-process for every schema and contender and report.
 */
class ShuffleRowSerdeBenchmarkSmokeTest {
  @ParameterizedTest
  @ValueSource(strings = {"roundTrip", "buildAndRoundTrip"})
  void everyCombinationProducesAThroughput(String method) throws Exception {
    assertThat(
            JmhSmoke.run(
                JmhSmoke.options(
                    ShuffleRowSerdeBenchmark.class.getName() + "\\." + method + "$",
                    TimeValue.milliseconds(50))))
        .hasSize(2 * SerdeContender.values().length);
  }
}
