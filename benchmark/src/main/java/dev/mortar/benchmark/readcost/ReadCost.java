package dev.mortar.benchmark.readcost;

import dev.mortar.benchmark.e2e.HudiTableFiles;
import java.util.Locale;

/**
 * One table of the read-cost benchmark: how it was written, what it holds, and how long Hudi's
 * reader takes to read all of it.
 *
 * @param services the table services it was written with
 * @param checkpoints batches the source emitted, one per checkpoint
 * @param keysRead distinct keys Hudi's reader returned
 * @param readMillis the fastest of the timed reads of the whole table
 */
public record ReadCost(
    ReadCostBenchmark.Services services,
    int checkpoints,
    HudiTableFiles files,
    long keysRead,
    double readMillis) {

  static final String HEADER =
      "| table services | checkpoints | active delta commits | active compactions | data files |"
          + " log files | base files | logs in latest slices | timeline files | keys read |"
          + " read ms (best) |\n"
          + "|---|---|---|---|---|---|---|---|---|---|---|\n";

  /** This table as a row under {@link #HEADER}. */
  String markdownRow() {
    return String.format(
        Locale.ROOT,
        "| %s | %d | %d | %d | %d | %d | %d | %d | %d | %,d | %.0f |%n",
        services,
        checkpoints,
        files.deltaCommits(),
        files.compactions(),
        files.logFiles() + files.baseFiles(),
        files.logFiles(),
        files.baseFiles(),
        files.latestSliceLogFiles(),
        files.timelineFiles(),
        keysRead,
        readMillis);
  }
}
