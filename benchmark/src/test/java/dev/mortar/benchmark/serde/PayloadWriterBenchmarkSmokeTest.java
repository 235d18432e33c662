package dev.mortar.benchmark.serde;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mortar.benchmark.JmhSmoke;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.runner.options.TimeValue;

/** CI smoke: both payload writers and both copy floors run in-process on both schemas. */
class PayloadWriterBenchmarkSmokeTest {
  @Test
  void writersAndFloorsReportATimePerRecord() throws Exception {
    assertThat(
            JmhSmoke.run(
                JmhSmoke.options(
                    PayloadWriterBenchmark.class.getName() + "\\.", TimeValue.milliseconds(50))))
        .hasSize(8);
  }
}
