package dev.mortar.writer.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mortar.testing.HudiTableOracle;
import dev.mortar.writer.MortarSink;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.generic.GenericRecord;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Metric;
import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sink's metrics: Flink's sink counters and the {@code mortar} group of the write path and of
 * the table services, read from a reporter.
 */
class MetricsITCase {
  private static final InMemoryReporter REPORTER = InMemoryReporter.createWithRetainedMetrics();

  /** The TaskManager's managed memory: 24 MiB per slot. */
  private static final MemorySize MANAGED_MEMORY = MemorySize.ofMebiBytes(48);

  @RegisterExtension
  static final MiniClusterExtension MINI_CLUSTER =
      new MiniClusterExtension(
          new MiniClusterResourceConfiguration.Builder()
              .setConfiguration(
                  REPORTER
                      .addToConfiguration(new Configuration())
                      .set(TaskManagerOptions.MANAGED_MEMORY_SIZE, MANAGED_MEMORY))
              .setNumberTaskManagers(1)
              .setNumberSlotsPerTaskManager(2)
              .build());

  @TempDir Path dir;

  @Test
  void writeAndCommitMetricsAreReported() throws Exception {
    // Distinct keys, no deletes: every change is written exactly once, whatever the flushes.
    Changelog changelog = Changelog.random(11, 400, 1 << 30, 0, 0);
    assertThat(changelog.ops().stream().map(Changelog.Op::id).distinct()).hasSize(400);
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
    env.enableCheckpointing(50);
    MortarSink.builder(Changelog.ROW_TYPE)
        .path(dir.resolve("t").toUri().toString())
        .recordKey("id")
        .parallelism(2)
        .bufferSize(MemorySize.parse("1mb"))
        .build()
        .sinkTo(changelogSource(env, changelog));
    env.execute("write metrics");
    Map<String, Metric> metrics = reported("write metrics");

    assertThat(sumCounters(metrics, ".numRecordsSend")).isEqualTo(400);
    assertThat(sumCounters(metrics, ".mortar.rowsReceived")).isEqualTo(400);
    assertThat(sumCounters(metrics, ".numBytesSend")).isPositive();
    assertThat(sumCounters(metrics, ".mortar.flushes")).isPositive();
    assertThat(sumCounters(metrics, ".mortar.logFilesWritten")).isPositive();
    assertThat(sumCounters(metrics, ".mortar.commits")).isGreaterThan(1);
    assertThat(gauges(metrics, ".mortar.bufferBytesTotal")).containsOnly(1L << 20);
    assertThat(gauges(metrics, ".mortar.lastCommitLogFiles")).allMatch(files -> files > 0);
  }

  /**
   * With 'buffer.managed-memory' each write task's pages are its slot's managed memory (the write
   * operator is the slot's one consumer, so its share is the whole slot's), not 'buffer.memory'; a
   * restart after a failure reserves it again, and the table is exact. A share below three pages
   * fails the job naming the options to change.
   */
  @Test
  void managedMemoryIsTheWriteTasksBudget() throws Exception {
    Changelog changelog = Changelog.random(12, 400, 120, 100, 30);
    String path = dir.resolve("managed").toUri().toString();
    Configuration restarts = new Configuration();
    restarts.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
    restarts.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ZERO);
    StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(restarts);
    env.enableCheckpointing(50);
    managedMemorySink(path, MemorySize.parse("64kb")).sinkTo(changelogSource(env, changelog));
    Failures.arm(List.of(new Failures.Plan(Failures.Point.SOURCE_OFFSET, 250)));
    try {
      env.execute("managed memory");
      assertThat(Failures.fired()).as("the source's failure").hasSize(1);
    } finally {
      Failures.disarm();
    }

    assertThat(gauges(reported("managed memory"), ".mortar.bufferBytesTotal"))
        .containsOnly(MANAGED_MEMORY.getBytes() / 2);
    Map<String, GenericRecord> table = HudiTableOracle.latestPerKey(path);
    Map<String, Changelog.Op> expected = changelog.expected(false);
    assertThat(table.keySet()).containsExactlyInAnyOrderElementsOf(expected.keySet());
    expected.forEach(
        (key, op) -> assertThat(table.get(key).get("name")).as(key).isEqualTo(op.name()));

    StreamExecutionEnvironment tooSmall = StreamExecutionEnvironment.getExecutionEnvironment();
    managedMemorySink(dir.resolve("too-small").toUri().toString(), MemorySize.parse("16mb"))
        .sinkTo(changelogSource(tooSmall, changelog));
    assertThatThrownBy(() -> tooSmall.execute("managed memory too small"))
        .satisfies(
            failure ->
                assertThat(ExceptionUtils.stringifyException(failure))
                    .contains("share of its slot's managed memory ('buffer.managed-memory') is")
                    .contains("taskmanager.memory.managed.size"));
  }

  private static MortarSink managedMemorySink(String path, MemorySize pageSize) {
    return MortarSink.builder(Changelog.ROW_TYPE)
        .path(path)
        .recordKey("id")
        .parallelism(2)
        .bufferSize(MemorySize.parse("64mb"))
        .pageSize(pageSize)
        .managedBufferMemory(true)
        .build();
  }

  private static DataStream<RowData> changelogSource(
      StreamExecutionEnvironment env, Changelog changelog) {
    return env.addSource(
            new ChangelogSource<>(changelog, List.of(), 100, Changelog.Op::toRowData),
            "changelog",
            InternalTypeInfo.of(Changelog.ROW_TYPE))
        .setParallelism(1);
  }

  /**
   * A job with every table service at small values reports what they did: compactions with their
   * records, logs and bytes, cleaned files and bytes, archived instants, the active timeline's size
   * within the archiver's bound, and no compaction pending once the job ended.
   */
  @Test
  void tableServiceMetricsAreReported() throws Exception {
    Changelog changelog = Changelog.random(12, 1200, 100, 0, 0);
    SinkJob job =
        SinkJob.at(dir.resolve("services").toUri().toString())
            .parallelism(2)
            .buckets(2)
            .perCheckpoint(20)
            .compactEvery(2)
            .cleanRetainCommits(2)
            .archiveBeyond(6)
            .build();
    job.runDataStream(changelog);
    job.verify(changelog);
    Map<String, Metric> metrics = reported("mortar datastream test");

    assertThat(sumCounters(metrics, ".mortar.compactions")).isPositive();
    assertThat(sumCounters(metrics, ".mortar.compactedRecords")).isPositive();
    assertThat(sumCounters(metrics, ".mortar.compactedLogFiles")).isPositive();
    assertThat(sumCounters(metrics, ".mortar.compactedLogBytes")).isPositive();
    assertThat(sumCounters(metrics, ".mortar.compactedBaseFileBytes")).isPositive();
    assertThat(gauges(metrics, ".mortar.lastCompactionMs")).singleElement().matches(ms -> ms > 0);
    assertThat(gauges(metrics, ".mortar.pendingCompactions")).containsOnly(0L);
    assertThat(sumCounters(metrics, ".mortar.cleanedFiles")).isPositive();
    assertThat(sumCounters(metrics, ".mortar.cleanedBytes")).isPositive();
    assertThat(sumCounters(metrics, ".mortar.archivedInstants")).isPositive();
    assertThat(gauges(metrics, ".mortar.activeTimelineInstants"))
        .singleElement()
        .matches(instants -> instants > 0 && instants <= 3 * 3 * 6);
  }

  /**
   * The metrics this MiniCluster reported for the job named {@code job}. Operators chained together
   * repeat some identifiers, so metrics are collected per group rather than by unique identifier.
   */
  private static Map<String, Metric> reported(String job) {
    Map<String, Metric> metrics = new HashMap<>();
    REPORTER
        .getMetricsByGroup()
        .forEach(
            (group, byName) ->
                byName.forEach(
                    (name, metric) -> {
                      String identifier = group.getMetricIdentifier(name);
                      if (identifier.contains(job)) {
                        metrics.put(identifier + "#" + System.identityHashCode(metric), metric);
                      }
                    }));
    return metrics;
  }

  private static long sumCounters(Map<String, Metric> metrics, String suffix) {
    return metrics.entrySet().stream()
        .filter(
            e ->
                e.getKey().substring(0, e.getKey().lastIndexOf('#')).endsWith(suffix)
                    && e.getValue() instanceof Counter)
        .mapToLong(e -> ((Counter) e.getValue()).getCount())
        .sum();
  }

  private static java.util.List<Long> gauges(Map<String, Metric> metrics, String suffix) {
    return metrics.entrySet().stream()
        .filter(e -> e.getKey().substring(0, e.getKey().lastIndexOf('#')).endsWith(suffix))
        .map(e -> ((Number) ((Gauge<?>) e.getValue()).getValue()).longValue())
        .toList();
  }
}
