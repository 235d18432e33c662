package dev.mortar.benchmark.serde;

import dev.mortar.benchmark.workload.WorkloadSchema;
import java.util.Collection;
import java.util.EnumMap;
import java.util.Map;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * A quick, in-process run of {@link ShuffleRowSerdeBenchmark} (about 15 seconds) that prints one
 * table: records/ms and bytes/record per contender and schema. Indicative only: for figures, run
 * the JMH command in rfc/0001-serde.md.
 */
public final class SerdeQuickstart {
  private static final WorkloadSchema[] SCHEMAS = {WorkloadSchema.SCHEMA1, WorkloadSchema.SCHEMA3};

  private SerdeQuickstart() {}

  public static void main(String[] args) throws Exception {
    System.out.println(
        "[quickstart] shuffle-record serde round trip, "
            + ShuffleRowSerdeBenchmark.RECORDS
            + " records per op, 1 warm-up + 1 measured iteration of 0.5 s each (quick mode)");
    // Indicative figures only: run even while another JMH process holds JMH's lock.
    System.setProperty("jmh.ignoreLock", "true");
    Collection<RunResult> results =
        new Runner(options("roundTrip", TimeValue.milliseconds(500))).run();
    Map<WorkloadSchema, Map<SerdeContender, Double>> sizes = new EnumMap<>(WorkloadSchema.class);
    for (WorkloadSchema schema : SCHEMAS) {
      sizes.put(schema, SerdeWireSizes.of(schema));
    }
    System.out.println(table(results, sizes));
    if (results.size() < SCHEMAS.length * SerdeContender.values().length) {
      System.out.println(
          "[quickstart] '-' = the benchmark failed in this JVM; Kryo needs Flink's --add-opens"
              + " list on Java 17 (java.util, java.util.concurrent.atomic, ...)");
    }
  }

  /**
   * One method of the benchmark over both schemas and every contender, in this JVM, one short
   * iteration each.
   */
  static Options options(String method, TimeValue iterationTime) {
    return new OptionsBuilder()
        .include(ShuffleRowSerdeBenchmark.class.getName() + "." + method + "$")
        .forks(0)
        .warmupIterations(1)
        .warmupTime(iterationTime)
        .measurementIterations(1)
        .measurementTime(iterationTime)
        .verbosity(VerboseMode.SILENT)
        .build();
  }

  static String table(
      Collection<RunResult> results, Map<WorkloadSchema, Map<SerdeContender, Double>> sizes) {
    Map<WorkloadSchema, Map<SerdeContender, Double>> scores = new EnumMap<>(WorkloadSchema.class);
    for (RunResult result : results) {
      WorkloadSchema schema = WorkloadSchema.valueOf(result.getParams().getParam("schema"));
      SerdeContender contender = SerdeContender.valueOf(result.getParams().getParam("contender"));
      scores
          .computeIfAbsent(schema, s -> new EnumMap<>(SerdeContender.class))
          .put(contender, result.getPrimaryResult().getScore());
    }
    StringBuilder table = new StringBuilder();
    table.append(
        String.format(
            "%-8s | %-9s | %10s | %12s%n", "schema", "contender", "records/ms", "bytes/record"));
    table.append("---------+-----------+------------+-------------\n");
    for (WorkloadSchema schema : SCHEMAS) {
      for (SerdeContender contender : SerdeContender.values()) {
        Double score = scores.getOrDefault(schema, Map.of()).get(contender);
        table.append(
            String.format(
                "%-8s | %-9s | %10s | %12.1f%n",
                schema,
                contender,
                score == null ? "-" : String.format("%.0f", score),
                sizes.get(schema).get(contender)));
      }
    }
    return table.toString();
  }
}
