package dev.mortar.logformat;

import org.apache.flink.table.data.binary.BinaryStringData;

/**
 * Content of a DELETE_BLOCK (shared/spec/hudi-format.md §9.3):
 *
 * <pre>
 *  int32 content version = 3 | int32 m | m bytes: Avro datum of HoodieDeleteRecordList
 *
 *  HoodieDeleteRecordList = array block: varint n, n x HoodieDeleteRecord, varint 0
 *  HoodieDeleteRecord     = 02 recordKey string | 02 partitionPath string | orderingVal union
 * </pre>
 *
 * Records are encoded as they arrive; the count of the array block is only known at the end, so the
 * block is assembled once in {@link #finishBlock()} (deletes are small: key plus a few bytes).
 */
final class DeleteBlockBuilder {
  private final byte[] partitionPath;
  private final BlockBuffer records = new BlockBuffer(1024);
  private final BlockBuffer content = new BlockBuffer(1024);
  private int count;

  DeleteBlockBuilder(byte[] partitionPath) {
    this.partitionPath = partitionPath;
  }

  void add(BinaryStringData recordKey, OrderingValue ordering) {
    if (ordering == null) {
      throw new IllegalArgumentException(
          "a delete needs an ordering value (Hudi's reader fails on null); use"
              + " OrderingValue.natural() when the table has no ordering field");
    }
    recordKey.ensureMaterialized();
    records.writeByte(2);
    records.writeAvroBytes(
        recordKey.getSegments(), recordKey.getOffset(), recordKey.getSizeInBytes());
    records.writeByte(2);
    records.writeAvroBytes(partitionPath);
    ordering.encodeAvro(records);
    count++;
  }

  int count() {
    return count;
  }

  /** The block content; the builder is empty afterwards. */
  BlockBuffer finishBlock() {
    content.reset();
    content.writeIntBigEndian(LogBlockLayout.BLOCK_CONTENT_VERSION);
    int lengthPosition = content.reserve(4);
    content.writeAvroLong(count);
    content.writeBytes(records.array(), 0, records.size());
    content.writeAvroLong(0);
    content.putIntBigEndian(lengthPosition, content.size() - 8);
    records.reset();
    count = 0;
    return content;
  }
}
