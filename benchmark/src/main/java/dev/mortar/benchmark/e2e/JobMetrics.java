package dev.mortar.benchmark.e2e;

import java.util.List;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.MetricConfig;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.reporter.MetricReporter;
import org.apache.flink.metrics.reporter.MetricReporterFactory;

/**
 * How many rows the DataGen source has emitted so far, summed over its subtasks: the same signal
 * Paimon's cluster benchmark samples ({@code numRecordsOut} of the source operator), read in
 * process from a metric reporter of the job's embedded MiniCluster.
 *
 * <p>{@link #configure} installs the reporter; {@link #emitted()} is safe to call from any thread.
 * One job at a time per JVM; {@link #reset()} between jobs.
 */
public final class SourceProgress implements MetricReporter {
  private static final String NAME = "mortar_source_progress";
  private static final List<Counter> SOURCE_COUNTERS = new CopyOnWriteArrayList<>();

  /** Adds this reporter to the configuration of a local (MiniCluster) job. */
  public static void configure(Configuration config) {
    config.setString("metrics.reporter." + NAME + ".factory.class", Factory.class.getName());
  }

  /** Rows emitted by the source operators registered since the last {@link #reset()}. */
  public static long emitted() {
    long sum = 0;
    for (Counter counter : SOURCE_COUNTERS) {
      sum += counter.getCount();
    }
    return sum;
  }

  /** Forgets the counters of the previous job. */
  public static void reset() {
    SOURCE_COUNTERS.clear();
  }

  @Override
  public void open(MetricConfig config) {}

  @Override
  public void close() {}

  @Override
  public void notifyOfAddedMetric(Metric metric, String metricName, MetricGroup group) {
    String operator = group.getAllVariables().get("<operator_name>");
    if (metric instanceof Counter
        && metricName.equals("numRecordsOut")
        && operator != null
        && operator.startsWith("Source")) {
      SOURCE_COUNTERS.add((Counter) metric);
    }
  }

  @Override
  public void notifyOfRemovedMetric(Metric metric, String metricName, MetricGroup group) {
    // Keep the counter: the final count is read after the job has finished.
  }

  /** Found by Flink through META-INF/services. */
  public static final class Factory implements MetricReporterFactory {
    @Override
    public MetricReporter createMetricReporter(Properties properties) {
      return new SourceProgress();
    }
  }
}
