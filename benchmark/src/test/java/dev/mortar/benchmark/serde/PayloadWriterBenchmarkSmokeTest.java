package dev.mortar.benchmark.serde;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Collection;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/** CI smoke: both payload writers run in-process on both schemas and report a time per record. */
class PayloadWriterBenchmarkSmokeTest {
  @Test
  void bothWritersReportATimePerRecord() throws Exception {
    // JMH's lock only guards the fidelity of figures; other modules' smoke tests may hold it.
    System.setProperty("jmh.ignoreLock", "true");
    Collection<RunResult> results =
        new Runner(
                new OptionsBuilder()
                    .include(PayloadWriterBenchmark.class.getName() + "\\.")
                    .forks(0)
                    .warmupIterations(1)
                    .warmupTime(TimeValue.milliseconds(50))
                    .measurementIterations(1)
                    .measurementTime(TimeValue.milliseconds(50))
                    .build())
            .run();

    assertThat(results).hasSize(4);
    for (RunResult result : results) {
      assertThat(result.getPrimaryResult().getScore())
          .as(result.getParams().toString())
          .isPositive();
    }
  }
}
