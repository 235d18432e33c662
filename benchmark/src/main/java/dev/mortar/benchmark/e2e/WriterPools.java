package dev.mortar.benchmark.e2e;

/**
 * The leak check's view of Mortar's page pools: pages still out after the job ended.
 *
 * <p>Returns -1 ("not reported") until the writer exposes a process-wide count of its pools' pages
 * in use; a pool that is closed with pages out already fails the job loudly (PagePool's contract).
 */
final class WriterPools {
  private WriterPools() {}

  static long pagesOut() {
    return -1;
  }
}
