package dev.mortar.buffer;

import static dev.mortar.buffer.TestRows.bytesOf;
import static dev.mortar.buffer.TestRows.keyOfLength;
import static dev.mortar.buffer.TestRows.rowOfSize;
import static org.assertj.core.api.Assertions.assertThat;

import dev.mortar.serde.Operation;
import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Records placed exactly at page edges (pages of 256 bytes, entries from address 0; see {@link
 * RecordEntryLayout}: 16 header bytes, then key, then row). The pool is off-heap and the scratch
 * area is on the heap, which shows whether a row was read in place (from one page or from the pages
 * it spans) or copied.
 */
class BucketBufferBoundaryTest {
  private static final int PAGE = 256;
  private final PagePool pool = PagePool.strictOffHeap(PAGE, 16 * PAGE);
  private final BucketBuffer buffer = pool.newBuffer("edge", Deduplication.OFF);

  @AfterEach
  void releaseAll() {
    buffer.release();
    pool.close();
  }

  @Test
  void recordEndingExactlyAtPageEndIsReadInPlaceAndTheNextStartsOnANewPage() {
    // 16 + 8 + 232 = 256
    BinaryStringData key = keyOfLength(8, 'a');
    BinaryRowData row = rowOfSize(232, (byte) 7);
    append(key, 5, row);
    assertThat(buffer.pagesHeld()).isEqualTo(1);
    append(keyOfLength(1, 'b'), 6, rowOfSize(16, (byte) 8));
    assertThat(buffer.pagesHeld()).isEqualTo(2);

    BufferCursor cursor = buffer.cursor();
    assertThat(cursor.next()).isTrue();
    assertRecord(cursor, key, 5, row);
    assertThat(cursor.row().getSegments()[0].isOffHeap()).as("read in place").isTrue();
    assertThat(cursor.next()).isTrue();
    assertThat(cursor.key().toString()).isEqualTo("b");
    assertThat(cursor.row().getSegments()[0].isOffHeap()).isTrue();
    assertThat(cursor.next()).isFalse();
  }

  @Test
  void recordOneByteOverThePageEndIsReadInPlaceFromBothPages() {
    // 16 + 9 + 232 = 257: the row's last byte is on the second page, its fixed part on the first
    BinaryStringData key = keyOfLength(9, 'a');
    BinaryRowData row = rowOfSize(232, (byte) 9);
    append(key, 1, row);
    assertThat(buffer.pagesHeld()).isEqualTo(2);

    BufferCursor cursor = buffer.cursor();
    assertThat(cursor.next()).isTrue();
    assertRecord(cursor, key, 1, row);
    assertThat(cursor.row().getSegments()).as("both pages, in place").hasSize(2);
    assertThat(cursor.row().getSegments()).allMatch(MemorySegment::isOffHeap);
    assertThat(cursor.row().getBinary(0)).isEqualTo(row.getBinary(0));
    assertThat(cursor.next()).isFalse();
  }

  @Test
  void fixedPartCrossingThePageBoundaryReadsEveryField() {
    // key of 224 bytes: the row starts at 240, its fixed part (8 + 3 * 8 bytes) ends at 272
    BinaryStringData key = keyOfLength(224, 'k');
    BinaryRowData row = TestRows.rowWithFields(new int[] {3, 40, 0}, 42);
    append(key, 3, row);

    BufferCursor cursor = buffer.cursor();
    assertThat(cursor.next()).isTrue();
    assertRecord(cursor, key, 3, row);
    assertThat(cursor.row().getSegments()[0].isOffHeap()).as("copied to scratch").isFalse();
    for (int field = 0; field < 3; field++) {
      assertThat(cursor.row().getBinary(field)).isEqualTo(row.getBinary(field));
    }
  }

  @Test
  void headerAtThePageEndAndKeySpanningPages() {
    // first entry: 16 + 0 + 216 = 232; the second header fills 232..248, its key starts at 248
    // and crosses into the second page
    append(keyOfLength(0, 'x'), 0, rowOfSize(216, (byte) 1));
    BinaryStringData key = BinaryStringData.fromString("spanning-key");
    BinaryRowData row = rowOfSize(24, (byte) 2);
    append(key, 77, row);

    BufferCursor cursor = buffer.cursor();
    assertThat(cursor.next()).isTrue();
    assertThat(cursor.key().toString()).isEmpty();
    assertThat(cursor.next()).isTrue();
    assertRecord(cursor, key, 77, row);
    assertThat(cursor.key().getSegments()[0].isOffHeap()).as("key copied to scratch").isFalse();
  }

  @Test
  void recordLargerThanAPageRoundTripsBitExact() {
    BinaryStringData key = keyOfLength(300, 'z');
    BinaryRowData row = TestRows.rowWithFields(new int[] {700, 5, 900}, 7);
    append(keyOfLength(4, 'p'), 1, rowOfSize(40, (byte) 3));
    append(key, 2, row);
    append(keyOfLength(4, 'q'), 3, rowOfSize(40, (byte) 4));

    BufferCursor cursor = buffer.cursor();
    assertThat(cursor.next()).isTrue();
    assertThat(cursor.next()).isTrue();
    assertRecord(cursor, key, 2, row);
    for (int field = 0; field < 3; field++) {
      assertThat(cursor.row().getBinary(field)).isEqualTo(row.getBinary(field));
    }
    assertThat(cursor.next()).isTrue();
    assertThat(cursor.key().toString()).isEqualTo("qqqq");
    assertThat(bytesOf(cursor.row())).isEqualTo(bytesOf(rowOfSize(40, (byte) 4)));
  }

  private void append(BinaryStringData key, long ordering, BinaryRowData row) {
    assertThat(buffer.append(key, ordering, Operation.UPDATE, row)).isTrue();
  }

  private static void assertRecord(
      BufferCursor cursor, BinaryStringData key, long ordering, BinaryRowData row) {
    assertThat(cursor.key()).isEqualTo(key);
    assertThat(cursor.orderingValue()).isEqualTo(ordering);
    assertThat(cursor.operation()).isEqualTo(Operation.UPDATE);
    assertThat(cursor.row().getArity()).isEqualTo(row.getArity());
    assertThat(bytesOf(cursor.row())).isEqualTo(bytesOf(row));
  }
}
