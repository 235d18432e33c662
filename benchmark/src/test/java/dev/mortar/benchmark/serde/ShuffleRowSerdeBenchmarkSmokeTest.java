package dev.mortar.benchmark.serde;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Collection;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.TimeValue;

/** CI smoke: the JMH benchmark runs in-process for every schema and contender and reports. */
class ShuffleRowSerdeBenchmarkSmokeTest {
  @Test
  void everyCombinationProducesAThroughput() throws Exception {
    // JMH's lock only guards the fidelity of figures; other modules' smoke tests may hold it.
    System.setProperty("jmh.ignoreLock", "true");
    Collection<RunResult> results =
        new Runner(SerdeQuickstart.options(TimeValue.milliseconds(50))).run();

    assertThat(results).hasSize(2 * SerdeContender.values().length);
    for (RunResult result : results) {
      assertThat(result.getPrimaryResult().getScore())
          .as(result.getParams().toString())
          .isPositive();
    }
  }
}
