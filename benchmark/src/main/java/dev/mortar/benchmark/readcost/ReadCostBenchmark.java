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
import java.util.Arrays;
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
 * with Mortar on a local MiniCluster, one batch per checkpoint, once per entry of {@code
 * --log-size-ratios} with the table services on (compaction every {@code --compact-every} delta
 * commits of the slices whose logs reached that ratio, cleaning and archival at their defaults) and
 * once with all of them off ({@code --uncompacted}), then times Hudi's own reader ({@code
 * HoodieFileGroupReader}, through {@link HudiTableOracle}) reading each whole table, and prints one
 * table row per table.
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
            "log-size-ratios",
            String.valueOf(MortarOptions.COMPACTION_LOG_SIZE_RATIO.defaultValue()),
            "compaction.log-size-ratio of the tables with services on, one table per entry (0:"
                + " every slice with logs in every plan)")
        .declare("uncompacted", "true", "also write and read the table with every service off")
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
   * Per entry of {@code --checkpoints}, writes one table with services on per entry of {@code
   * --log-size-ratios} and (with {@code --uncompacted}) one with them off, then reads them in turn:
   * one untimed warm-up read each, then {@code --reads} timed rounds, so that warm-up and drifts of
   * a shared machine hit every table alike. Returns per entry the tables in that order.
   */
  static List<ReadCost> run(Flags flags) throws Exception {
    int compactEvery = flags.getInt("compact-every");
    if (compactEvery < 1) {
      throw new IllegalArgumentException(
          "--compact-every: expected at least 1 delta commit, found " + compactEvery);
    }
    List<Services> tables = new ArrayList<>();
    for (String ratio : flags.getList("log-size-ratios")) {
      tables.add(new Services(compactEvery, Double.parseDouble(ratio)));
    }
    if (flags.getBoolean("uncompacted")) {
      tables.add(Services.OFF);
    }
    Path workDir = Path.of(flags.get("work-dir"));
    Files.createDirectories(workDir);
    List<ReadCost> costs = new ArrayList<>();
    for (String entry : flags.getList("checkpoints")) {
      int checkpoints = Integer.parseInt(entry);
      Path root = Files.createTempDirectory(workDir, "mortar-readcost");
      try {
        costs.addAll(compare(flags, root, checkpoints, tables));
      } finally {
        TableFiles.deleteRecursively(root);
      }
    }
    return costs;
  }

  /**
   * The table services a table of the benchmark is written with.
   *
   * @param compactEvery delta commits between compactions (cleaning and archival on too), 0 for no
   *     table service
   * @param logSizeRatio the compaction's 'compaction.log-size-ratio'
   */
  record Services(int compactEvery, double logSizeRatio) {
    static final Services OFF = new Services(0, 0);

    @Override
    public String toString() {
      if (compactEvery == 0) {
        return "off";
      }
      return "compaction every "
          + compactEvery
          + " (log size ratio "
          + logSizeRatio
          + "), clean, archive";
    }
  }

  private static List<ReadCost> compare(
      Flags flags, Path root, int checkpoints, List<Services> services) throws Exception {
    int n = services.size();
    Path[] tables = new Path[n];
    HudiTableFiles[] files = new HudiTableFiles[n];
    for (int t = 0; t < n; t++) {
      tables[t] = root.resolve("table-" + t);
      files[t] = write(flags, tables[t], checkpoints, services.get(t));
    }
    long[] keys = new long[n];
    double[] best = new double[n];
    Arrays.fill(best, Double.MAX_VALUE);
    for (int round = 0; round <= flags.getInt("reads"); round++) {
      for (int t = 0; t < n; t++) {
        long start = System.nanoTime();
        keys[t] = readKeys(tables[t]);
        double millis = (System.nanoTime() - start) / 1e6;
        System.out.printf(
            Locale.ROOT,
            "[readcost] %s read of the table with services %s after %d checkpoints: %,d keys in"
                + " %.0f ms%n",
            round == 0 ? "warm-up" : "timed",
            services.get(t),
            checkpoints,
            keys[t],
            millis);
        if (round > 0) {
          best[t] = Math.min(best[t], millis);
        }
      }
    }
    List<ReadCost> costs = new ArrayList<>();
    for (int t = 0; t < n; t++) {
      costs.add(new ReadCost(services.get(t), checkpoints, files[t], keys[t], best[t]));
    }
    return costs;
  }

  /** Reads the whole table with Hudi's reader; returns its distinct keys. */
  private static long readKeys(Path table) {
    return HudiTableOracle.forEachRow(
        table.toUri().toString(), new org.apache.hadoop.conf.Configuration(), (k, row, s) -> {});
  }

  /** Runs the writing job to its end on a fresh local MiniCluster; returns the table's files. */
  private static HudiTableFiles write(Flags flags, Path table, int checkpoints, Services services)
      throws Exception {
    System.out.printf(
        Locale.ROOT,
        "[readcost] writing %d checkpoints of %,d upserts, table services %s ...%n",
        checkpoints,
        flags.getLong("rows-per-checkpoint"),
        services);
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
            .compactionScheduling(services.compactEvery() > 0)
            .archival(services.compactEvery() > 0);
    if (services.compactEvery() > 0) {
      sink.compactionDeltaCommits(services.compactEvery())
          .compactionLogSizeRatio(services.logSizeRatio());
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
