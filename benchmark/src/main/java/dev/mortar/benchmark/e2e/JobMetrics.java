package dev.mortar.benchmark.e2e;

import java.util.List;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.MetricConfig;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.reporter.MetricReporter;
import org.apache.flink.metrics.reporter.MetricReporterFactory;

/**
 * The metrics the harness reads in process from a metric reporter of the job's embedded
 * MiniCluster:
 *
 * <ul>
 *   <li>how many rows the DataGen source has emitted, summed over its subtasks: the signal Paimon's
 *       cluster benchmark samples ({@code numRecordsOut} of the source operator);
 *   <li>the bytes Mortar's write tasks hold in their page pools ({@code mortar.bufferBytesUsed}),
 *       for the leak check after the job.
 * </ul>
 *
 * <p>{@link #configure} installs the reporter; the readers are safe to call from any thread. One
 * job at a time per JVM; {@link #reset()} between jobs.
 */
public final class JobMetrics implements MetricReporter {
  private static final String NAME = "mortar_harness";
  private static final List<Counter> SOURCE_COUNTERS = new CopyOnWriteArrayList<>();
  private static final List<Gauge<?>> POOL_GAUGES = new CopyOnWriteArrayList<>();

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

  /**
   * Bytes still held by the page pools of Mortar's write tasks of the current job (after the job:
   * pages never returned), or -1 when the job registered no Mortar pool metric.
   */
  public static long poolBytesOut() {
    if (POOL_GAUGES.isEmpty()) {
      return -1;
    }
    long sum = 0;
    for (Gauge<?> gauge : POOL_GAUGES) {
      sum += ((Number) gauge.getValue()).longValue();
    }
    return sum;
  }

  /** Forgets the metrics of the previous job. */
  public static void reset() {
    SOURCE_COUNTERS.clear();
    POOL_GAUGES.clear();
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
    } else if (metric instanceof Gauge
        && metricName.equals("bufferBytesUsed")
        && group.getMetricIdentifier(metricName).contains(".mortar.")) {
      POOL_GAUGES.add((Gauge<?>) metric);
    }
  }

  @Override
  public void notifyOfRemovedMetric(Metric metric, String metricName, MetricGroup group) {
    // Keep it: the final values are read after the job has finished.
  }

  /** Found by Flink through META-INF/services. */
  public static final class Factory implements MetricReporterFactory {
    @Override
    public MetricReporter createMetricReporter(Properties properties) {
      return new JobMetrics();
    }
  }
}
