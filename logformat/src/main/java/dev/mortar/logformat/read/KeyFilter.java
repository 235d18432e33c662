package dev.mortar.logformat.read;

/**
 * Which records a read gives on, by record key: the readers test a record's key before they decode
 * the rest of it, so a record the filter refuses costs a key read and a skip. A reader that is
 * given {@link #ALL} reads no key ahead.
 */
@FunctionalInterface
public interface KeyFilter {
  /** Every record. */
  KeyFilter ALL = (utf8, offset, length) -> true;

  /**
   * Whether the records of the key in {@code utf8[offset, offset + length)} are read. The bytes are
   * the reader's, valid only during the call.
   */
  boolean accepts(byte[] utf8, int offset, int length);
}
