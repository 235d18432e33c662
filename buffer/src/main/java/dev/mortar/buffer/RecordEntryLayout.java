package dev.mortar.buffer;

/**
 * The byte layout of one record entry in a {@link BucketBuffer}'s pages. Entries are written one
 * after another into the bucket's logical address space (page {@code a >>> pageShift}, offset
 * {@code a & pageMask}); an entry may span any number of pages.
 *
 * <pre>
 *  0         4         8                    16        20   21    22          22+K        22+K+R
 *  +---------+---------+--------------------+---------+----+-----+-----------+-----------+-----+
 *  | key len | row len | ordering value     | arity   | op |state| key bytes | row bytes | pad |
 *  | int32 K | int32 R | int64              | int32   | i8 | i8  | K bytes   | R bytes   | → 8 |
 *  +---------+---------+--------------------+---------+----+-----+-----------+-----------+-----+
 * </pre>
 *
 * <ul>
 *   <li>Every entry starts at a multiple of 8 and pages are a power of two of at least {@link
 *       #MIN_PAGE_SIZE} bytes, so the header never straddles a page: each header field can be read
 *       with one access to one page. Only key and row bytes may span pages.
 *   <li>{@code op} is {@link dev.mortar.serde.Operation#code()}; {@code arity} is the row's field
 *       count, needed to point a {@code BinaryRowData} at the row bytes.
 *   <li>{@code state} is {@link #LIVE} or {@link #SUPERSEDED}: de-duplication marks an entry
 *       superseded when a newer record of its key is appended elsewhere; iteration skips it.
 * </ul>
 */
final class RecordEntryLayout {
  static final int KEY_LENGTH_OFFSET = 0;
  static final int ROW_LENGTH_OFFSET = 4;
  static final int ORDERING_OFFSET = 8;
  static final int ARITY_OFFSET = 16;
  static final int OPERATION_OFFSET = 20;
  static final int STATE_OFFSET = 21;
  static final int KEY_OFFSET = 22;

  static final byte LIVE = 1;
  static final byte SUPERSEDED = 0;

  /** Entries start at multiples of this. */
  static final int ALIGNMENT = 8;

  /** The smallest page: a power of two larger than the header, so the header fits in a page. */
  static final int MIN_PAGE_SIZE = 64;

  private RecordEntryLayout() {}

  /** Bytes an entry with a key of {@code keyLength} and a row of {@code rowLength} occupies. */
  static long entryLength(int keyLength, int rowLength) {
    long unpadded = (long) KEY_OFFSET + keyLength + rowLength;
    return (unpadded + ALIGNMENT - 1) & -ALIGNMENT;
  }

  /** Offset of the row bytes from the entry start. */
  static int rowOffset(int keyLength) {
    return KEY_OFFSET + keyLength;
  }
}
