package dev.mortar.buffer;

import static dev.mortar.buffer.RecordEntryLayout.ARITY_OFFSET;
import static dev.mortar.buffer.RecordEntryLayout.KEY_LENGTH_OFFSET;
import static dev.mortar.buffer.RecordEntryLayout.KEY_OFFSET;
import static dev.mortar.buffer.RecordEntryLayout.LIVE;
import static dev.mortar.buffer.RecordEntryLayout.OPERATION_OFFSET;
import static dev.mortar.buffer.RecordEntryLayout.ORDERING_OFFSET;
import static dev.mortar.buffer.RecordEntryLayout.ROW_LENGTH_OFFSET;
import static dev.mortar.buffer.RecordEntryLayout.STATE_OFFSET;

import dev.mortar.serde.Operation;
import java.util.ConcurrentModificationException;
import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinaryStringData;

/**
 * Walks the live entries of a {@link BucketBuffer} in the order they were written. {@link #key()}
 * and {@link #row()} return the same objects after every {@link #next()}, re-pointed at the current
 * entry in place: an entry that lies in one page (nearly all) through one reused page array, the
 * others through {@link PageRangeView}s, where a key that lies in one page and a row whose
 * fixed-length part does are read from the pages, a row spanning pages from the pages it spans.
 * Only a key that spans pages, or a row whose fixed-length part does, is copied to a scratch area
 * that grows to the largest such record and is then reused. Nothing is allocated per record.
 */
public final class BufferCursor {
  private final BucketBuffer buffer;
  private final PageList data;

  /** The page of an entry that lies in one page, for {@link #key} and {@link #row} to read. */
  private final MemorySegment[] entryPage = new MemorySegment[1];

  private final PageRangeView keyView = new PageRangeView();
  private final PageRangeView rowView = new PageRangeView();
  private final BinaryStringData key = new BinaryStringData(new MemorySegment[1], 0, 0);
  private BinaryRowData row = new BinaryRowData(0);

  /** The null bits and slots of {@link #row}: the part a {@code BinaryRowData} reads in place. */
  private int fixedPartLength = BinaryRowData.calculateFixPartSizeInBytes(0);

  private long nextEntry;
  private long end;
  private int expectedModificationCount;
  private boolean onRecord;
  private int keyLength;
  private int rowLength;
  private byte state;
  private long orderingValue;
  private Operation operation;

  BufferCursor(BucketBuffer buffer, PageList data) {
    this.buffer = buffer;
    this.data = data;
  }

  void reset(long end, int modificationCount) {
    this.nextEntry = 0;
    this.end = end;
    this.expectedModificationCount = modificationCount;
    this.onRecord = false;
  }

  /** Moves to the next record; {@code false} when there is none. */
  public boolean next() {
    if (buffer.modificationCount() != expectedModificationCount) {
      throw new ConcurrentModificationException(
          "buffer " + buffer.ownerName() + " changed since cursor() was called");
    }
    while (nextEntry < end) {
      long entry = nextEntry;
      // the entry's page when its header lies in one page (nearly always), else null
      MemorySegment page = data.inOnePage(entry, KEY_OFFSET) ? data.pageOf(entry) : null;
      int at = data.offsetIn(entry);
      if (page != null) {
        readHeader(page, at);
      } else {
        readHeaderAcrossPages(entry);
      }
      nextEntry += RecordEntryLayout.entryLength(keyLength, rowLength);
      if (state != LIVE) {
        continue;
      }
      if (page != null && nextEntry - entry <= page.size() - at) {
        pointKeyAndRowInPage(page, at);
      } else {
        pointKeyAndRowAcrossPages(entry);
      }
      return onRecord = true;
    }
    return onRecord = false;
  }

  /** The current record's key; the same object after every {@link #next()}. */
  public BinaryStringData key() {
    checkOnRecord();
    return key;
  }

  public long orderingValue() {
    checkOnRecord();
    return orderingValue;
  }

  public Operation operation() {
    checkOnRecord();
    return operation;
  }

  /** The current record's row; the same object after every {@link #next()} of the same arity. */
  public BinaryRowData row() {
    checkOnRecord();
    return row;
  }

  /** Reads the header of the entry at {@code at} of {@code page}, which holds all of it. */
  private void readHeader(MemorySegment page, int at) {
    keyLength = page.getInt(at + KEY_LENGTH_OFFSET);
    rowLength = page.getInt(at + ROW_LENGTH_OFFSET);
    orderingValue = page.getLong(at + ORDERING_OFFSET);
    state = page.get(at + STATE_OFFSET);
    setOperationAndArity(page.get(at + OPERATION_OFFSET), page.getInt(at + ARITY_OFFSET));
  }

  /** Reads the header of an entry that starts near a page end; no field straddles the pages. */
  private void readHeaderAcrossPages(long entry) {
    keyLength = data.getInt(entry + KEY_LENGTH_OFFSET);
    rowLength = data.getInt(entry + ROW_LENGTH_OFFSET);
    orderingValue = data.getLong(entry + ORDERING_OFFSET);
    state = data.get(entry + STATE_OFFSET);
    setOperationAndArity(data.get(entry + OPERATION_OFFSET), data.getInt(entry + ARITY_OFFSET));
  }

  private void setOperationAndArity(byte operationCode, int arity) {
    operation = Operation.ofCode(operationCode);
    if (row.getArity() != arity) {
      row = new BinaryRowData(arity);
      fixedPartLength = BinaryRowData.calculateFixPartSizeInBytes(arity);
    }
  }

  /**
   * Points key and row at an entry that lies in one page (nearly all of them): both read the page
   * in place through one reused one-element array.
   */
  private void pointKeyAndRowInPage(MemorySegment page, int at) {
    entryPage[0] = page;
    key.setJavaObject(null);
    key.getBinarySection().pointTo(entryPage, at + KEY_OFFSET, keyLength);
    row.pointTo(entryPage, at + RecordEntryLayout.rowOffset(keyLength), rowLength);
  }

  private void pointKeyAndRowAcrossPages(long entry) {
    key.setJavaObject(null);
    MemorySegment[] keySegments = keyView.point(data, entry + KEY_OFFSET, keyLength, keyLength);
    key.getBinarySection().pointTo(keySegments, keyView.offset(), keyLength);
    long rowAddress = entry + RecordEntryLayout.rowOffset(keyLength);
    MemorySegment[] rowSegments = rowView.point(data, rowAddress, rowLength, fixedPartLength);
    row.pointTo(rowSegments, rowView.offset(), rowLength);
  }

  private void checkOnRecord() {
    if (!onRecord) {
      throw new IllegalStateException("cursor is not on a record: call next() first");
    }
  }
}
