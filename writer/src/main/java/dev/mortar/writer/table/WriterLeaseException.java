package dev.mortar.writer.table;

/**
 * The table's {@link WriterLease} is held by another writer, or a writer lost it. The message names
 * the table, the holder (job, host, last heartbeat) and the lease option.
 */
public final class WriterLeaseException extends IllegalStateException {
  private static final long serialVersionUID = 1L;

  WriterLeaseException(String message) {
    super(message);
  }
}
