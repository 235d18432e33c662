package dev.mortar.benchmark.e2e;

import java.nio.file.Path;
import java.util.List;

/**
 * One measured run: which system writes which workload with which Flink settings. The parent {@link
 * Harness} passes it to a fresh {@link RunOne} JVM as flags.
 *
 * @param warmupRows rows of the warm-up job run first in the same JVM (0 = none)
 * @param shuffled force a keyed shuffle in front of the sink even where Flink would chain it
 * @param workDir a directory the run may fill and delete
 */
public record RunSpec(
    SystemUnderTest system,
    Workload workload,
    long rows,
    long warmupRows,
    int parallelism,
    int buckets,
    long checkpointMillis,
    boolean objectReuse,
    boolean shuffled,
    int repeat,
    Path workDir) {

  /** The same run, writing its tables under {@code dir}. */
  RunSpec inWorkDir(Path dir) {
    return new RunSpec(
        system,
        workload,
        rows,
        warmupRows,
        parallelism,
        buckets,
        checkpointMillis,
        objectReuse,
        shuffled,
        repeat,
        dir);
  }

  /** The flags of {@link RunOne} declared with their defaults. */
  public static Flags flags() {
    return new Flags("RunOne")
        .declare("system", "blackhole", SystemUnderTest.flagNames(" | "))
        .declare("workload", "schema1", "schema1..schema4 or size<bytes>")
        .declare("rows", "1000000", "rows of the measured job")
        .declare("warmup-rows", "500000", "rows of the warm-up job (0 = none)")
        .declare("parallelism", "1", "parallelism of source and sink")
        .declare("buckets", "0", "fixed buckets of the table (0 = parallelism)")
        .declare("checkpoint-ms", "20000", "checkpoint interval")
        .declare("object-reuse", "false", "Flink's pipeline.object-reuse")
        .declare("shuffled", "false", "force a keyed shuffle in front of the sink")
        .declare("repeat", "0", "the repeat this run belongs to (for the report)")
        .declare("work-dir", System.getProperty("java.io.tmpdir"), "where tables are written");
  }

  public static RunSpec fromFlags(Flags flags) {
    int parallelism = flags.getInt("parallelism");
    int buckets = flags.getInt("buckets");
    return new RunSpec(
        SystemUnderTest.parse(flags.get("system")),
        Workload.parse(flags.get("workload")),
        flags.getLong("rows"),
        flags.getLong("warmup-rows"),
        parallelism,
        buckets > 0 ? buckets : parallelism,
        flags.getLong("checkpoint-ms"),
        flags.getBoolean("object-reuse"),
        flags.getBoolean("shuffled"),
        flags.getInt("repeat"),
        Path.of(flags.get("work-dir")));
  }

  /** This spec as the flags of {@link RunOne}. */
  List<String> toArgs() {
    return List.of(
        "--system", system.flagName(),
        "--workload", workload.name(),
        "--rows", Long.toString(rows),
        "--warmup-rows", Long.toString(warmupRows),
        "--parallelism", Integer.toString(parallelism),
        "--buckets", Integer.toString(buckets),
        "--checkpoint-ms", Long.toString(checkpointMillis),
        "--object-reuse", Boolean.toString(objectReuse),
        "--shuffled", Boolean.toString(shuffled),
        "--repeat", Integer.toString(repeat),
        "--work-dir", workDir.toString());
  }

  /** The variant label used to group runs in the report, e.g. {@code schema1 P=2}. */
  String variant() {
    StringBuilder label = new StringBuilder(workload.name()).append(" P=").append(parallelism);
    if (buckets != parallelism) {
      label.append(" buckets=").append(buckets);
    }
    if (objectReuse) {
      label.append(" reuse");
    }
    if (shuffled) {
      label.append(" shuffled");
    }
    return label.toString();
  }
}
