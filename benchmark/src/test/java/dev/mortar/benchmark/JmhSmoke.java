package dev.mortar.benchmark;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Collection;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * The JMH smoke runs of CI: benchmarks run in the test's own JVM (no fork), one short warm-up and
 * one short measured iteration, silently, and each must report a throughput. The figures mean
 * nothing; the run proves that every benchmark sets up, runs and tears down.
 */
public final class JmhSmoke {
  private JmhSmoke() {}

  /**
   * Options that run the benchmarks whose names match {@code include} for one warm-up and one
   * measured iteration of {@code iterationTime}; the caller may add includes or override any
   * setting.
   */
  public static ChainedOptionsBuilder options(String include, TimeValue iterationTime) {
    return new OptionsBuilder()
        .include(include)
        .forks(0)
        .warmupIterations(1)
        .warmupTime(iterationTime)
        .measurementIterations(1)
        .measurementTime(iterationTime)
        .verbosity(VerboseMode.SILENT);
  }

  /**
   * Runs {@code options} and checks that every benchmark reported a positive score. JMH's lock is
   * ignored: it only guards the fidelity of figures, and other modules' smoke tests on the same
   * machine may hold it.
   */
  public static Collection<RunResult> run(ChainedOptionsBuilder options) throws RunnerException {
    System.setProperty("jmh.ignoreLock", "true");
    Collection<RunResult> results = new Runner(options.build()).run();
    for (RunResult result : results) {
      assertThat(result.getPrimaryResult().getScore())
          .as(result.getParams().getBenchmark() + " " + result.getParams())
          .isPositive();
    }
    return results;
  }
}
