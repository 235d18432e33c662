package dev.mortar.buffer;

import static dev.mortar.buffer.TestRows.bytesOf;
import static dev.mortar.buffer.TestRows.rowOfSize;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mortar.serde.Operation;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/** De-duplication rules, the all-or-nothing append, and the too-large record. */
class BucketBufferTest {
  private static final int PAGE = 256;
  private final PagePool pool = PagePool.strictOnHeap(PAGE, 64 * PAGE);

  /** Pairs of distinct keys whose hashes, as the de-dup index computes them, are equal. */
  private static final List<String[]> COLLIDING_KEY_PAIRS = collidingKeyPairs(8);

  @AfterEach
  void poolBalances() {
    pool.close();
  }

  @ParameterizedTest
  @EnumSource(
      value = Deduplication.class,
      names = {"ON_APPEND", "ON_READ"})
  void deduplicationKeepsTheLargestOrderingAndOnTiesTheLaterArrival(Deduplication deduplication) {
    BucketBuffer buffer = pool.newBuffer("dedup", deduplication);
    append(buffer, "a", 5, Operation.INSERT, 1);
    append(buffer, "a", 4, Operation.UPDATE, 2); // smaller ordering: loses
    append(buffer, "b", 0, Operation.INSERT, 3);
    append(buffer, "b", 0, Operation.UPDATE, 4); // equal ordering: later arrival wins
    append(buffer, "c", 1, Operation.INSERT, 5);
    append(buffer, "c", 2, Operation.DELETE, 6); // a delete is a record like any other
    append(buffer, "d", 3, Operation.DELETE, 7);
    append(buffer, "d", 3, Operation.INSERT, 8);

    assertThat(contents(buffer))
        .containsOnly(
            Map.entry("a", "5/INSERT/1"),
            Map.entry("b", "0/UPDATE/4"),
            Map.entry("c", "2/DELETE/6"),
            Map.entry("d", "3/INSERT/8"));
    assertThat(buffer.recordCount()).isEqualTo(4);
    buffer.release();
  }

  /**
   * A take returns a key's latest record once and hides it from later cursors. On 256-byte pages
   * the 40-byte rows of many keys cross page boundaries, so takes read entries that span pages.
   */
  @Test
  void takeReturnsTheLatestRecordOnceAndHidesItFromLaterCursors() {
    BucketBuffer buffer = pool.newBuffer("take", Deduplication.ON_APPEND);
    Map<String, String> expected = new HashMap<>();
    for (int tag = 1; tag <= 60; tag++) {
      String key = "key" + (tag % 20);
      append(buffer, key, tag / 20, tag % 7 == 0 ? Operation.DELETE : Operation.UPDATE, tag);
      expected.put(key, tag / 20 + "/" + (tag % 7 == 0 ? "DELETE" : "UPDATE") + "/" + tag);
    }
    Map<String, String> taken = new HashMap<>();
    for (int i = 0; i < 20; i += 3) {
      String key = "key" + i;
      BufferCursor record = buffer.take(BinaryStringData.fromString(key));
      byte[] row = bytesOf(record.row());
      assertThat(record.key().toString()).isEqualTo(key);
      taken.put(key, record.orderingValue() + "/" + record.operation() + "/" + row[row.length - 1]);
      assertThat(buffer.take(BinaryStringData.fromString(key))).isNull();
    }
    assertThat(buffer.take(BinaryStringData.fromString("absent"))).isNull();

    Map<String, String> left = contents(buffer);
    assertThat(taken).hasSize(7);
    taken.forEach((key, value) -> assertThat(expected.remove(key)).isEqualTo(value));
    assertThat(left).isEqualTo(expected);
    assertThat(buffer.recordCount()).isEqualTo(13);
    buffer.release();
  }

  @ParameterizedTest
  @EnumSource(
      value = Deduplication.class,
      names = {"OFF", "ON_READ"})
  void takeNeedsDeduplicationOnAppend(Deduplication deduplication) {
    BucketBuffer buffer = pool.newBuffer("take-" + deduplication, deduplication);
    assertThatThrownBy(() -> buffer.take(BinaryStringData.fromString("a")))
        .isInstanceOf(UnsupportedOperationException.class)
        .hasMessageContaining("ON_APPEND");
    buffer.release();
  }

  /**
   * Distinct keys with the same hash stay apart: the index compares the key bytes behind every hash
   * match. On 64-byte pages most keys cross a page boundary; a key given in 8-byte segments (as
   * from the network) takes the compare's multi-segment path.
   */
  @ParameterizedTest(name = "page {0} B, {1}, key segments of {2} B (0: one)")
  @CsvSource({
    "64, ON_APPEND, 0", "64, ON_APPEND, 8", "4096, ON_APPEND, 0", "4096, ON_APPEND, 8",
    "64, ON_READ, 0", "64, ON_READ, 8", "4096, ON_READ, 0", "4096, ON_READ, 8"
  })
  void keysWithTheSameHashStayApart(int pageSize, Deduplication deduplication, int keySegmentSize) {
    try (PagePool big = PagePool.strictOnHeap(pageSize, 4L << 20)) {
      BucketBuffer buffer = big.newBuffer("collisions", deduplication);
      Map<String, String> expected = new HashMap<>();
      int tag = 0;
      for (String[] pair : COLLIDING_KEY_PAIRS) {
        String first = pair[0];
        String second = pair[1];
        appendKey(buffer, first, 1, ++tag, keySegmentSize);
        appendKey(buffer, second, 1, ++tag, keySegmentSize);
        expected.put(second, "1/UPDATE/" + tag);
        appendKey(buffer, first, 2, ++tag, keySegmentSize); // replaces the first record only
        expected.put(first, "2/UPDATE/" + tag);
        appendKey(buffer, second, 0, ++tag, keySegmentSize); // loses to the second's record
      }
      assertThat(contents(buffer)).isEqualTo(expected);
      assertThat(buffer.recordCount()).isEqualTo(expected.size());
      buffer.release();
    }
  }

  private static List<String[]> collidingKeyPairs(int count) {
    Map<Integer, String> keyByHash = new HashMap<>();
    List<String[]> pairs = new ArrayList<>();
    // 32-bit hashes of n keys collide about n^2 / 2^33 times: ~260,000 keys give eight pairs
    for (int i = 0; pairs.size() < count; i++) {
      String key = "key-" + i;
      String earlier = keyByHash.putIfAbsent(indexHash(key), key);
      if (earlier != null) {
        pairs.add(new String[] {earlier, key});
      }
    }
    return pairs;
  }

  private static int indexHash(String key) {
    BinaryStringData bytes = BinaryStringData.fromString(key);
    bytes.ensureMaterialized();
    return bytes.getBinarySection().hashCode();
  }

  /**
   * Appends a record of {@code key} whose row ends in {@code tag}; with {@code keySegmentSize} > 0
   * the key and row lie back to back in segments of that size.
   */
  private static void appendKey(
      BucketBuffer buffer, String key, long ordering, int tag, int keySegmentSize) {
    BinaryRowData row = taggedRow(tag);
    BinaryStringData keyBytes = BinaryStringData.fromString(key);
    if (keySegmentSize > 0) {
      TestRows.KeyAndRow input =
          TestRows.backToBack(keyBytes, row, keySegmentSize, tag % keySegmentSize);
      keyBytes = input.key();
      row = input.row();
    }
    assertThat(buffer.append(keyBytes, ordering, Operation.UPDATE, row)).isTrue();
  }

  /**
   * Thousands of keys through many index growths, from the smallest page up: every key is found
   * again, so its second record replaces the first.
   */
  @ParameterizedTest(name = "page {0} B, {1}")
  @CsvSource({
    "64, ON_APPEND", "128, ON_APPEND", "256, ON_APPEND", "1024, ON_APPEND", "4096, ON_APPEND",
    "64, ON_READ", "128, ON_READ", "256, ON_READ", "1024, ON_READ", "4096, ON_READ"
  })
  void everyKeyIsFoundAgainAfterTheIndexGrows(int pageSize, Deduplication deduplication) {
    int keys = 3_000;
    try (PagePool big = PagePool.strictOnHeap(pageSize, 4L << 20)) {
      BucketBuffer buffer = big.newBuffer("dedup", deduplication);
      for (int round = 0; round < 2; round++) {
        for (int i = 0; i < keys; i++) {
          append(buffer, "key-" + i, round, Operation.UPDATE, round);
        }
        assertThat(contents(buffer)).as("round %s", round).hasSize(keys);
        assertThat(buffer.recordCount()).as("round %s", round).isEqualTo(keys);
      }
      assertThat(contents(buffer).values()).containsOnly("1/UPDATE/1");
      buffer.release();
    }
  }

  /**
   * ON_READ reserves, key by key, exactly the index pages ON_APPEND's index grows to, and holds the
   * pages of its entry log (8 bytes per entry) beside them.
   */
  @ParameterizedTest(name = "page {0} B")
  @ValueSource(ints = {64, 256, 4096})
  void onReadReservesThePagesTheOnAppendIndexGrowsTo(int pageSize) {
    try (PagePool big = PagePool.strictOnHeap(pageSize, 64L << 20)) {
      BucketBuffer onAppend = big.newBuffer("on-append", Deduplication.ON_APPEND);
      BucketBuffer onRead = big.newBuffer("on-read", Deduplication.ON_READ);
      for (int i = 0; i < 5_000; i++) {
        append(onAppend, "key-" + i, 0, Operation.INSERT, i);
        append(onRead, "key-" + i, 0, Operation.INSERT, i);
        int logPages = ((i + 1) * Long.BYTES + pageSize - 1) / pageSize;
        assertThat(onRead.pagesHeld())
            .as("after key %s", i)
            .isEqualTo(onAppend.pagesHeld() + logPages);
      }
      onAppend.release();
      onRead.release();
    }
  }

  /** The key count ON_READ appends compare against instead of computing the pages per record. */
  @ParameterizedTest(name = "page {0} B")
  @ValueSource(ints = {64, 256, 4096, 65536})
  void keysForIsTheLargestKeyCountThatFitsThePagesOfPagesFor(int pageSize) {
    for (int keys = 1; keys <= 200_000; keys++) {
      int pages = DedupIndex.pagesFor(keys, pageSize);
      assertThat(keys).as("keys").isLessThanOrEqualTo(DedupIndex.keysFor(pages, pageSize));
      assertThat(DedupIndex.pagesFor(DedupIndex.keysFor(pages, pageSize) + 1, pageSize))
          .as("pages for one key more than keysFor(pagesFor(%s))", keys)
          .isGreaterThan(pages);
    }
  }

  @Test
  void winnerOfTheSameLengthOverwritesInPlaceOtherwiseTheLoserIsSuperseded() {
    BucketBuffer buffer = pool.newBuffer("dedup", Deduplication.ON_APPEND);
    append(buffer, "key", 1, Operation.INSERT, rowOfSize(200, (byte) 1));
    int pages = buffer.pagesHeld();
    for (int i = 2; i < 100; i++) {
      append(buffer, "key", i, Operation.UPDATE, rowOfSize(200, (byte) i));
    }
    assertThat(buffer.pagesHeld()).as("same-length updates reuse the entry").isEqualTo(pages);

    append(buffer, "key", 100, Operation.UPDATE, rowOfSize(600, (byte) 100));
    assertThat(buffer.pagesHeld()).isGreaterThan(pages);
    assertThat(buffer.recordCount()).isEqualTo(1);
    BufferCursor cursor = buffer.cursor();
    assertThat(cursor.next()).isTrue();
    assertThat(cursor.orderingValue()).isEqualTo(100);
    assertThat(bytesOf(cursor.row())).isEqualTo(bytesOf(rowOfSize(600, (byte) 100)));
    assertThat(cursor.next()).isFalse();
    buffer.release();
  }

  @ParameterizedTest
  @EnumSource(
      value = Deduplication.class,
      names = {"ON_APPEND", "ON_READ"})
  void indexGrowsOverManyKeysAndFindsEveryOne(Deduplication deduplication) {
    try (PagePool big = PagePool.offHeap(PAGE, 16384 * PAGE)) {
      BucketBuffer buffer = big.newBuffer("many", deduplication);
      int keys = 20_000;
      for (int round = 0; round < 2; round++) {
        for (int k = 0; k < keys; k++) {
          append(buffer, "key-" + k, round, Operation.UPDATE, 10 * round + k % 7);
        }
      }
      Map<String, String> contents = contents(buffer);
      assertThat(contents).hasSize(keys);
      assertThat(buffer.recordCount()).isEqualTo(keys);
      for (int k = 0; k < keys; k++) {
        assertThat(contents.get("key-" + k)).isEqualTo("1/UPDATE/" + (10 + k % 7));
      }
      buffer.release();
    }
  }

  @Test
  void fullAppendLeavesTheBufferExactlyAsItWas() {
    for (Deduplication deduplication : Deduplication.values()) {
      BucketBuffer other = pool.newBuffer("other", Deduplication.OFF);
      BucketBuffer buffer = pool.newBuffer("self", deduplication);
      PagePoolTest.fillPages(other, 20);
      int i = 0;
      BinaryRowData row = rowOfSize(96, (byte) 0);
      while (buffer.append(BinaryStringData.fromString("k" + i), i, Operation.INSERT, row)) {
        i++;
      }
      int records = buffer.recordCount();
      int pages = buffer.pagesHeld();
      int inUse = pool.pagesInUse();
      List<String> before = arrivals(buffer);

      BinaryStringData failedKey = BinaryStringData.fromString("k" + i);
      assertThat(buffer.append(failedKey, i, Operation.INSERT, row)).isFalse();
      assertThat(buffer.recordCount()).isEqualTo(records);
      assertThat(buffer.pagesHeld()).isEqualTo(pages);
      assertThat(pool.pagesInUse()).isEqualTo(inUse).isEqualTo(pool.maxPages() - freePagesLeft());
      assertThat(arrivals(buffer)).isEqualTo(before);

      assertThat(pool.largestBufferExcept(buffer)).containsSame(other);
      other.release();
      assertThat(buffer.append(failedKey, i, Operation.INSERT, row)).isTrue();
      assertThat(buffer.recordCount()).isEqualTo(records + 1);
      buffer.release();
    }
  }

  /**
   * ON_READ appends reserve the index pages; once {@link BucketBuffer#prepareForReading()} took
   * them, reading needs nothing from the pool, even a full one (the strict pool would throw).
   */
  @Test
  void onReadReservesTheIndexSoThatReadingTakesNothingFromAFullPool() {
    BucketBuffer buffer = pool.newBuffer("on-read", Deduplication.ON_READ);
    for (int i = 0; i < 120; i++) {
      append(buffer, "key-" + i % 80, i / 80, Operation.UPDATE, i);
    }
    int pages = buffer.pagesHeld();
    assertThat(pool.pagesInUse()).isEqualTo(pages);
    BucketBuffer other = pool.newBuffer("other", Deduplication.OFF);
    PagePoolTest.fillPages(other, pool.maxPages() - pages);
    assertThat(pool.canAcquire(1)).isFalse();

    buffer.prepareForReading();
    assertThat(buffer.pagesHeld()).isEqualTo(pages);
    Map<String, String> contents = contents(buffer);
    assertThat(contents).hasSize(80);
    for (int k = 0; k < 80; k++) {
      String expected = k < 40 ? "1/UPDATE/" + (80 + k) : "0/UPDATE/" + k;
      assertThat(contents.get("key-" + k)).as("key-%s", k).isEqualTo(expected);
    }
    assertThat(buffer.recordCount()).isEqualTo(80);
    assertThat(buffer.pagesHeld()).isEqualTo(pages);
    other.release();
    buffer.release();
  }

  @Test
  void recordThatCannotFitAnEmptyPoolFailsWithTheNumbersAndTheOption() {
    BucketBuffer buffer = pool.newBuffer("bucket-7", Deduplication.ON_APPEND);
    BinaryRowData row = rowOfSize(64 * PAGE - 16, (byte) 1);
    assertThatThrownBy(
            () -> buffer.append(BinaryStringData.fromString("k"), 0, Operation.INSERT, row))
        .isInstanceOf(RecordTooLargeException.class)
        .hasMessage(
            "record of 16392 bytes (key + row + 16 bytes header, padded to 8) for buffer bucket-7"
                + " cannot fit even into an empty page pool: page size 256 bytes, budget 16384"
                + " bytes = 64 pages, one of them taken by the de-dup index. Raise 'buffer.memory'"
                + " to at least 16896 bytes.");
    assertThat(buffer.pagesHeld()).isZero();
    buffer.release();
  }

  /**
   * A 16-byte header can end exactly at the end of the last page held, so an empty key's address is
   * past every page: comparing it with another empty key must not look at a page.
   */
  @ParameterizedTest
  @EnumSource(
      value = Deduplication.class,
      names = {"ON_APPEND", "ON_READ"})
  void emptyKeyAtTheEndOfTheLastPageMatchesTheNextEmptyKey(Deduplication deduplication) {
    try (PagePool small = PagePool.strictOnHeap(64, 16 * 64)) {
      BucketBuffer buffer = small.newBuffer("edge", deduplication);
      // 16 + 1 + 24 = 41, padded to 48; then an empty key and row take 48..64, the page's end
      append(buffer, "k", 0, Operation.INSERT, rowOfSize(24, (byte) 1));
      append(buffer, "", 1, Operation.INSERT, TestRows.emptyRow());
      append(buffer, "", 2, Operation.DELETE, TestRows.emptyRow());

      BufferCursor cursor = buffer.cursor();
      Map<String, String> records = new HashMap<>();
      while (cursor.next()) {
        records.put(cursor.key().toString(), cursor.orderingValue() + "/" + cursor.operation());
      }
      assertThat(records).containsOnly(Map.entry("k", "0/INSERT"), Map.entry("", "2/DELETE"));
      buffer.release();
    }
  }

  /**
   * The entry header holds a key of up to 65535 bytes and a row of up to 16383 fields, each record
   * at a limit round-trips; one past it is refused with the number, the limit and the buffer, and
   * leaves the buffer as it was, on the write-page path (a key and row back to back) and off it.
   */
  @ParameterizedTest
  @EnumSource(Deduplication.class)
  void keyLengthAndArityAtTheHeaderLimitsRoundTripAndOnePastIsRefused(Deduplication deduplication) {
    try (PagePool big = PagePool.strictOnHeap(1 << 17, 8L << 20)) {
      BucketBuffer buffer = big.newBuffer("bucket-3", deduplication);
      BinaryRowData widestRow = TestRows.rowWithFields(new int[16383], 3);
      assertThat(buffer.append(BinaryStringData.fromString("w"), 2, Operation.UPDATE, widestRow))
          .isTrue();
      int pagesHeld = buffer.pagesHeld();

      // the page being written has room for these, so the back-to-back one tries the write page
      BinaryRowData smallRow = rowOfSize(16, (byte) 5);
      BinaryStringData tooLongKey = TestRows.keyOfLength(65536, 'k');
      TestRows.KeyAndRow backToBack = TestRows.backToBack(tooLongKey, smallRow, 1 << 17, 0);
      for (TestRows.KeyAndRow input :
          List.of(new TestRows.KeyAndRow(tooLongKey, smallRow), backToBack)) {
        assertThatThrownBy(() -> buffer.append(input.key(), 3, Operation.INSERT, input.row()))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage(
                "key of 65536 bytes ('"
                    + "k".repeat(32)
                    + "…') for buffer bucket-3 is longer than the 65535 bytes a buffer entry holds;"
                    + " shorten the record key");
      }
      BinaryRowData tooWideRow = TestRows.rowWithFields(new int[16384], 4);
      assertThatThrownBy(
              () ->
                  buffer.append(BinaryStringData.fromString("x"), 4, Operation.INSERT, tooWideRow))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage(
              "row of 16384 fields for buffer bucket-3 has more than the 16383 fields a buffer"
                  + " entry holds");
      assertThat(buffer.pagesHeld()).isEqualTo(pagesHeld);
      assertThat(buffer.recordCount()).isEqualTo(1);

      BinaryStringData longestKey = TestRows.keyOfLength(65535, 'k');
      TestRows.KeyAndRow longest = TestRows.backToBack(longestKey, smallRow, 1 << 17, 0);
      assertThat(buffer.append(longest.key(), 1, Operation.DELETE, longest.row())).isTrue();

      BufferCursor cursor = buffer.cursor();
      assertThat(cursor.next()).isTrue();
      assertThat(cursor.key().toString()).isEqualTo("w");
      assertThat(cursor.orderingValue()).isEqualTo(2);
      assertThat(cursor.operation()).isEqualTo(Operation.UPDATE);
      assertThat(cursor.row().getArity()).isEqualTo(16383);
      assertThat(bytesOf(cursor.row())).isEqualTo(bytesOf(widestRow));
      assertThat(cursor.next()).isTrue();
      assertThat(cursor.key()).isEqualTo(longestKey);
      assertThat(cursor.orderingValue()).isEqualTo(1);
      assertThat(cursor.operation()).isEqualTo(Operation.DELETE);
      assertThat(bytesOf(cursor.row())).isEqualTo(bytesOf(smallRow));
      assertThat(cursor.next()).isFalse();
      buffer.release();
    }
  }

  private int freePagesLeft() {
    int free = 0;
    while (pool.canAcquire(free + 1)) {
      free++;
    }
    return free;
  }

  private static void append(
      BucketBuffer buffer, String key, long ordering, Operation op, int tag) {
    append(buffer, key, ordering, op, taggedRow(tag));
  }

  /** A row of 24, 32 or 40 bytes whose last byte is {@code tag}, as {@link #contents} reads it. */
  private static BinaryRowData taggedRow(int tag) {
    return rowOfSize(24 + 8 * (tag % 3), (byte) tag);
  }

  private static void append(
      BucketBuffer buffer, String key, long ordering, Operation op, BinaryRowData row) {
    assertThat(buffer.append(BinaryStringData.fromString(key), ordering, op, row)).isTrue();
  }

  /** key → "ordering/operation/last row byte" of each record. */
  private static Map<String, String> contents(BucketBuffer buffer) {
    Map<String, String> contents = new HashMap<>();
    BufferCursor cursor = buffer.cursor();
    while (cursor.next()) {
      byte[] row = bytesOf(cursor.row());
      String value = cursor.orderingValue() + "/" + cursor.operation() + "/" + row[row.length - 1];
      assertThat(contents.put(cursor.key().toString(), value)).isNull();
    }
    return contents;
  }

  private static List<String> arrivals(BucketBuffer buffer) {
    List<String> keys = new ArrayList<>();
    BufferCursor cursor = buffer.cursor();
    while (cursor.next()) {
      keys.add(cursor.key() + "/" + cursor.orderingValue() + "/" + bytesOf(cursor.row()).length);
    }
    return keys;
  }
}
