package dev.mortar.benchmark.compaction;

import java.nio.file.Path;

/** One system that executes the pending compaction plans of a table, on one compaction thread. */
interface Compactor {
  /** The name in the results, e.g. {@code mortar}. */
  String name();

  /** The name prefix of the threads that merge and write, to meter them apart from the rest. */
  String compactionThreadPrefix();

  /** Executes every plan pending in the local table at {@code table}, and returns when done. */
  void compactPending(Path table) throws Exception;
}
