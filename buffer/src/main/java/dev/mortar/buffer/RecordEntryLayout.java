package dev.mortar.buffer;

import java.nio.ByteOrder;

/**
 * The byte layout of one record entry in a {@link BucketBuffer}'s pages. Entries are written one
 * after another into the bucket's logical address space (page {@code a >>> pageShift}, offset
 * {@code a & pageMask}); an entry may span any number of pages.
 *
 * <pre>
 *  0          4          8                    16          16+K        16+K+R
 *  +----------+----------+--------------------+-----------+-----------+-----+
 *  | row word | key word | ordering value     | key bytes | row bytes | pad |
 *  | int32    | int32    | int64              | K bytes   | R bytes   | → 8 |
 *  +----------+----------+--------------------+-----------+-----------+-----+
 *
 *  row word: bit 31 superseded, bits 0..30 row length R
 *  key word: bits 30..31 op, bits 16..29 arity, bits 0..15 key length K
 * </pre>
 *
 * <ul>
 *   <li>Every entry starts at a multiple of 8 and pages are a power of two of at least {@link
 *       #MIN_PAGE_SIZE} bytes, so no header word straddles a page: each is read and written with
 *       one access to one page, and the row and key words together are an aligned long that the
 *       cursor reads at once ({@link #rowWordOf}, {@link #keyWordOf}). The header as a whole does
 *       straddle two pages when the entry starts 8 bytes before a page's end (the two words in one
 *       page, the ordering value in the next); key and row bytes may span any number of pages.
 *   <li>{@code op} is {@link dev.mortar.serde.Operation#code()}; {@code arity} is the row's field
 *       count, needed to point a {@code BinaryRowData} at the row bytes.
 *   <li>The superseded bit is set when de-duplication finds a newer record of the entry's key
 *       elsewhere; iteration skips the entry. A live entry's row word is its row length.
 *   <li>Packing the lengths, arity and operation into two words keeps the header at 16 bytes. It
 *       limits a key to {@value #MAX_KEY_LENGTH} bytes and a row to {@value #MAX_ARITY} fields;
 *       {@link BucketBuffer#append} rejects larger ones.
 * </ul>
 */
final class RecordEntryLayout {
  static final int ROW_WORD_OFFSET = 0;
  static final int KEY_WORD_OFFSET = 4;
  static final int ORDERING_OFFSET = 8;
  static final int KEY_OFFSET = 16;

  static final int MAX_KEY_LENGTH = 0xFFFF;
  static final int MAX_ARITY = 0x3FFF;

  private static final int SUPERSEDED_BIT = 1 << 31;
  private static final int ARITY_SHIFT = 16;
  private static final int OPERATION_SHIFT = 30;

  /** Entries start at multiples of this. */
  static final int ALIGNMENT = 8;

  /** The smallest page: a power of two larger than the header, so the header fits in a page. */
  static final int MIN_PAGE_SIZE = 64;

  /**
   * Whether a long read at an entry's start (in native order, as {@code MemorySegment} reads) holds
   * the row word in its low half.
   */
  private static final boolean ROW_WORD_LOW = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;

  private RecordEntryLayout() {}

  /** The row word of the long at an entry's start: both header words with one read. */
  static int rowWordOf(long headerWords) {
    return (int) (ROW_WORD_LOW ? headerWords : headerWords >>> 32);
  }

  /** The key word of the long at an entry's start. */
  static int keyWordOf(long headerWords) {
    return (int) (ROW_WORD_LOW ? headerWords >>> 32 : headerWords);
  }

  /** Bytes an entry with a key of {@code keyLength} and a row of {@code rowLength} occupies. */
  static long entryLength(int keyLength, int rowLength) {
    long unpadded = (long) KEY_OFFSET + keyLength + rowLength;
    return (unpadded + ALIGNMENT - 1) & -ALIGNMENT;
  }

  /** Offset of the row bytes from the entry start. */
  static int rowOffset(int keyLength) {
    return KEY_OFFSET + keyLength;
  }

  /** The key word of a key of at most {@link #MAX_KEY_LENGTH} bytes and {@link #MAX_ARITY}. */
  static int keyWord(int keyLength, int arity, byte operationCode) {
    return keyLength | arity << ARITY_SHIFT | operationCode << OPERATION_SHIFT;
  }

  static int keyLength(int keyWord) {
    return keyWord & MAX_KEY_LENGTH;
  }

  static int arity(int keyWord) {
    return (keyWord >>> ARITY_SHIFT) & MAX_ARITY;
  }

  static byte operationCode(int keyWord) {
    return (byte) (keyWord >>> OPERATION_SHIFT);
  }

  static int rowLength(int rowWord) {
    return rowWord & ~SUPERSEDED_BIT;
  }

  static boolean isLive(int rowWord) {
    return rowWord >= 0;
  }

  static int superseded(int rowWord) {
    return rowWord | SUPERSEDED_BIT;
  }
}
