package dev.mortar.benchmark.readcost;

import dev.mortar.benchmark.e2e.Flags;
import dev.mortar.benchmark.e2e.HudiTableFiles;
import dev.mortar.benchmark.e2e.TableFiles;
import dev.mortar.logformat.LogBlockFormat;
import dev.mortar.testing.HudiTableOracle;
import dev.mortar.writer.MortarOptions;
import dev.mortar.writer.MortarSink;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.runtime.typeutils.InternalTypeInfo;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;

/**
 * What the table services buy a reader, and whether a table's read cost stays flat as it is
 * streamed: for each of {@code --checkpoints} (e.g. 100, 500 and 2,000) writes the same upserts
 * twice with Mortar on a local MiniCluster, one batch per checkpoint, once with the table services
 * on (compaction every {@code --compact-every} delta commits of the slices whose logs reached
 * {@code --log-size-ratio}, cleaning and archival at their defaults) and once with all of them off,
 * then times Hudi's own reader ({@code HoodieFileGroupReader}, through {@link HudiTableOracle})
 * reading each whole table, and prints one table row per table.
 *
 * <p>{@code bin/readcost --help} lists the flags.
 */
public final class ReadCostBenchmark {
  static final RowType ROW_TYPE =
      RowType.of(
          new org.apache.flink.table.types.logical.LogicalType[] {
            new BigIntType(false), new VarCharType(VarCharType.MAX_LENGTH), new BigIntType()
          },
          new String[] {"id", "payload", "batch"});

  private ReadCostBenchmark() {}

  static Flags flags() {
    return new Flags("readcost")
        .declare(
            "checkpoints",
            "100,500,2000",
            "checkpoints of each job (one batch of upserts each); a list writes a pair of tables"
                + " per entry")
        .declare("rows-per-checkpoint", "1000", "upserts per checkpoint")
        .declare("keys", "200000", "keys drawn uniformly from [0, keys)")
        .declare("buckets", "4", "fixed buckets (file groups) of the tables")
        .declare("parallelism", "2", "parallelism of the writer (and of compaction)")
        .declare("checkpoint-ms", "100", "checkpoint interval")
        .declare(
            "compact-every", "5", "delta commits between compactions of the table with services on")
        .declare(
            "log-size-ratio",
            "",
            "compaction.log-size-ratio of the table with services on (empty: the option's"
                + " default; 0: every slice with logs in every plan)")
        .declare("reads", "3", "timed reads of each table after a warm-up read; the fastest counts")
        .declare("seed", "1", "seed of the keys")
        .declare("work-dir", System.getProperty("java.io.tmpdir"), "where the tables are written");
  }

  public static void main(String[] args) throws Exception {
    Flags flags = flags();
    if (!flags.parse(args)) {
      return;
    }
    List<ReadCost> costs = run(flags);
    System.out.println();
    System.out.print(ReadCost.HEADER);
    costs.forEach(cost -> System.out.print(cost.markdownRow()));
    System.exit(0);
  }

  /**
   * Per entry of {@code --checkpoints}, writes the table with services on and the one with them
   * off, then reads the two in turn: one untimed warm-up read each, then {@code --reads} timed
   * rounds, so that warm-up and drifts of a shared machine hit both tables alike. Returns per entry
   * the table with services on first.
   */
  static List<ReadCost> run(Flags flags) throws Exception {
    int compactEvery = flags.getInt("compact-every");
    if (compactEvery < 1) {
      throw new IllegalArgumentException(
          "--compact-every: expected at least 1 delta commit, found " + compactEvery);
    }
    Path workDir = Path.of(flags.get("work-dir"));
    Files.createDirectories(workDir);
    List<ReadCost> costs = new ArrayList<>();
    for (String entry : flags.getList("checkpoints")) {
      int checkpoints = Integer.parseInt(entry);
      Path root = Files.createTempDirectory(workDir, "mortar-readcost");
      try {
        costs.addAll(pair(flags, root, checkpoints, compactEvery));
      } finally {
        TableFiles.deleteRecursively(root);
      }
    }
    return costs;
  }

  private static List<ReadCost> pair(Flags flags, Path root, int checkpoints, int compactEvery)
      throws Exception {
    int[] compactions = {compactEvery, 0};
    double logSizeRatio = logSizeRatio(flags);
    Path[] tables = {root.resolve("services-on"), root.resolve("services-off")};
    HudiTableFiles[] files = new HudiTableFiles[2];
    for (int t = 0; t < 2; t++) {
      files[t] = write(flags, tables[t], checkpoints, compactions[t], logSizeRatio);
    }
    long[] keys = new long[2];
    double[] best = {Double.MAX_VALUE, Double.MAX_VALUE};
    for (int round = 0; round <= flags.getInt("reads"); round++) {
      for (int t = 0; t < 2; t++) {
        long start = System.nanoTime();
        keys[t] = readKeys(tables[t]);
        double millis = (System.nanoTime() - start) / 1e6;
        System.out.printf(
            Locale.ROOT,
            "[readcost] %s read of %s after %d checkpoints: %,d keys in %.0f ms%n",
            round == 0 ? "warm-up" : "timed",
            tables[t].getFileName(),
            checkpoints,
            keys[t],
            millis);
        if (round > 0) {
          best[t] = Math.min(best[t], millis);
        }
      }
    }
    List<ReadCost> costs = new ArrayList<>();
    for (int t = 0; t < 2; t++) {
      costs.add(
          new ReadCost(compactions[t], logSizeRatio, checkpoints, files[t], keys[t], best[t]));
    }
    return costs;
  }

  private static double logSizeRatio(Flags flags) {
    String ratio = flags.get("log-size-ratio");
    return ratio.isEmpty()
        ? MortarOptions.COMPACTION_LOG_SIZE_RATIO.defaultValue()
        : Double.parseDouble(ratio);
  }

  /** Reads the whole table with Hudi's reader; returns its distinct keys. */
  private static long readKeys(Path table) {
    return HudiTableOracle.forEachRow(
        table.toUri().toString(), new org.apache.hadoop.conf.Configuration(), (k, row, s) -> {});
  }

  /** Runs the writing job to its end on a fresh local MiniCluster; returns the table's files. */
  private static HudiTableFiles write(
      Flags flags, Path table, int checkpoints, int compactEvery, double logSizeRatio)
      throws Exception {
    System.out.printf(
        Locale.ROOT,
        "[readcost] writing %d checkpoints of %,d upserts, table services %s ...%n",
        checkpoints,
        flags.getLong("rows-per-checkpoint"),
        compactEvery > 0
            ? "on (compaction every "
                + compactEvery
                + " delta commits, log size ratio "
                + logSizeRatio
                + ", cleaning, archival)"
            : "off");
    long start = System.nanoTime();
    Configuration config = new Configuration();
    config.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
    // Any free port: other MiniClusters may hold Flink's default 8081.
    config.setString("rest.bind-port", "0");
    int parallelism = flags.getInt("parallelism");
    StreamExecutionEnvironment env =
        StreamExecutionEnvironment.createLocalEnvironment(parallelism, config);
    env.enableCheckpointing(flags.getLong("checkpoint-ms"));
    DataStream<RowData> rows =
        env.addSource(
                new CheckpointedBatchSource(
                    checkpoints,
                    flags.getInt("rows-per-checkpoint"),
                    flags.getLong("keys"),
                    flags.getLong("seed")),
                "batches",
                InternalTypeInfo.of(ROW_TYPE))
            .setParallelism(1);
    MortarSink.Builder sink =
        MortarSink.builder(ROW_TYPE)
            .path(table.toUri().toString())
            .recordKey("id")
            .buckets(flags.getInt("buckets"))
            .parallelism(parallelism)
            .logBlockFormat(LogBlockFormat.AVRO)
            .compactionScheduling(compactEvery > 0)
            .archival(compactEvery > 0);
    if (compactEvery > 0) {
      sink.compactionDeltaCommits(compactEvery).compactionLogSizeRatio(logSizeRatio);
    }
    sink.build().sinkTo(rows);
    env.execute("mortar read-cost writer");
    HudiTableFiles files = HudiTableFiles.count(table);
    System.out.printf(
        Locale.ROOT,
        "[readcost]   written in %.1f s: %s%n",
        (System.nanoTime() - start) / 1e9,
        files.asMap());
    return files;
  }
}
