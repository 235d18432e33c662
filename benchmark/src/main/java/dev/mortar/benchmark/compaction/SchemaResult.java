package dev.mortar.benchmark.compaction;

import java.util.List;
import java.util.Map;

/**
 * The outcome for one schema: the plans both systems executed, what Hudi's reader read from each
 * system's compacted copy, and every run's figures.
 *
 * @param plans the plans pending in the written table
 * @param distinctKeys the distinct keys of the rows written
 * @param readBack per system, what Hudi's reader read from its first compacted copy
 * @param leftPending per system, the plans any of its runs left pending (none when it compacted
 *     every plan)
 */
record SchemaResult(
    String schema,
    PendingPlans plans,
    long distinctKeys,
    Map<String, TableChecksum> readBack,
    Map<String, List<String>> leftPending,
    List<CompactionFigures> runs) {

  /**
   * @throws IllegalStateException when a system left a plan pending, when the systems' tables read
   *     back differently, or when a table lacks some of the written keys
   */
  void check() {
    leftPending.forEach(
        (system, pending) -> {
          if (!pending.isEmpty()) {
            throw new IllegalStateException(
                schema + ": " + system + " left compaction plan(s) " + pending + " pending");
          }
        });
    if (readBack.values().stream().distinct().count() != 1) {
      throw new IllegalStateException(
          schema + ": the compacted tables read back differently (keys, checksum): " + readBack);
    }
    readBack.forEach(
        (system, read) -> {
          if (read.keys() != distinctKeys) {
            throw new IllegalStateException(
                schema
                    + ": Hudi's reader found "
                    + read.keys()
                    + " keys in "
                    + system
                    + "'s compacted table, expected the "
                    + distinctKeys
                    + " distinct keys written");
          }
        });
  }

  /** The runs of one system. */
  List<CompactionFigures> runsOf(String system) {
    return runs.stream().filter(run -> run.system().equals(system)).toList();
  }
}
