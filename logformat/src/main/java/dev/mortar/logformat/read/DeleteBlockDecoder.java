package dev.mortar.logformat.read;

import dev.mortar.logformat.LogBlockLayout;
import dev.mortar.logformat.OrderingValue;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import org.apache.flink.table.data.binary.BinaryStringData;

/**
 * Decodes the content of a DELETE_BLOCK, the inverse of {@code DeleteBlockBuilder}
 * (shared/spec/hudi-format.md §9.3):
 *
 * <pre>
 *  int32 content version = 3 | int32 m | m bytes: Avro datum of HoodieDeleteRecordList
 *
 *  HoodieDeleteRecordList = array blocks of HoodieDeleteRecord, ending with count 0
 *  HoodieDeleteRecord     = recordKey ["null", string] | partitionPath ["null", string]
 *                           | orderingVal union: branch 1..11 a one-field wrapper record
 * </pre>
 *
 * The ordering value becomes an {@link OrderingValue} through its factories. A null key, a null
 * ordering value (branch 0) and the multi-field ArrayWrapper (branch 12) are refused: Mortar never
 * writes them, and a compactor could not merge them.
 */
final class DeleteBlockDecoder {
  private static final int ARRAY_WRAPPER = 12;

  private final AvroInput in = new AvroInput();

  /**
   * Gives every delete of the block whose key {@code keys} accepts to {@code sink}; returns the
   * number of deletes in the block.
   */
  long decode(byte[] content, int length, LogRecordSink sink, KeyFilter keys) throws IOException {
    if (length < 8) {
      throw new IOException("delete block content of " + length + " bytes, expected at least 8");
    }
    int version = LogFileReader.bigEndianInt(content, 0);
    if (version != LogBlockLayout.BLOCK_CONTENT_VERSION) {
      throw new IOException(
          "delete block content version "
              + version
              + ", expected "
              + LogBlockLayout.BLOCK_CONTENT_VERSION);
    }
    int datumLength = LogFileReader.bigEndianInt(content, 4);
    if (datumLength != length - 8) {
      throw new IOException(
          "delete list of " + datumLength + " bytes in a content of " + length + " bytes");
    }
    in.reset(content, 8, datumLength);
    long deletes = 0;
    for (int n; (n = in.readBlockCount()) != 0; ) {
      for (int i = 0; i < n; i++, deletes++) {
        decodeDelete(deletes, sink, keys);
      }
    }
    if (in.remaining() != 0) {
      throw new IOException(in.remaining() + " bytes after the delete list's last block");
    }
    return deletes;
  }

  private void decodeDelete(long index, LogRecordSink sink, KeyFilter keys) throws IOException {
    if (in.readUnionBranch("recordKey of delete " + index) == 0) {
      throw new IOException("delete " + index + " has a null record key");
    }
    byte[] keyBytes = in.readBytes();
    BinaryStringData key = BinaryStringData.fromBytes(keyBytes);
    String partitionPath =
        in.readUnionBranch("partitionPath of delete " + index) == 0 ? null : in.readString();
    OrderingValue ordering = orderingValue(index, key);
    if (keys.accepts(keyBytes, 0, keyBytes.length)) {
      sink.delete(key, partitionPath, ordering);
    }
  }

  /** Branches 1..11 of the orderingVal union, each a record with one field {@code value}. */
  private OrderingValue orderingValue(long index, BinaryStringData key) throws IOException {
    long branch = in.readLong();
    switch ((int) branch) {
      case 1:
        return OrderingValue.ofBoolean(in.readBoolean());
      case 2:
        return OrderingValue.ofInt(in.readInt());
      case 3:
        return OrderingValue.ofLong(in.readLong());
      case 4:
        return OrderingValue.ofFloat(in.readFloat());
      case 5:
        return OrderingValue.ofDouble(in.readDouble());
      case 6:
        return OrderingValue.ofBytes(in.readBytes());
      case 7:
        return OrderingValue.ofString(in.readString());
      case 8:
        return OrderingValue.ofDate(in.readInt());
      case 9:
        return OrderingValue.ofDecimal(
            new BigDecimal(new BigInteger(in.readBytes()), OrderingValue.DECIMAL_WRAPPER_SCALE));
      case 10:
        return OrderingValue.ofTimeMicros(in.readLong());
      case 11:
        return OrderingValue.ofTimestampMicros(in.readLong());
      default:
        String what =
            branch == 0
                ? "null (union branch 0)"
                : branch == ARRAY_WRAPPER
                    ? "an ArrayWrapper (branch 12, multi-field ordering), which is not supported"
                    : "union branch " + branch + ", expected 1 to 11";
        throw new IOException("delete " + index + " (key " + key + ") has ordering value " + what);
    }
  }
}
