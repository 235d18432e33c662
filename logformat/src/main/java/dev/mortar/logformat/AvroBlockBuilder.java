package dev.mortar.logformat;

import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.types.logical.RowType;

/**
 * Content of an AVRO_DATA_BLOCK (shared/spec/hudi-format.md §9.1), encoded into one reusable
 * buffer:
 *
 * <pre>
 *  int32 content version = 3 | int32 record count n | n x ( int32 length | Avro binary datum )
 * </pre>
 *
 * The version and count are patched in when the block is finished, each record's length once its
 * datum is written, so every byte is written exactly once.
 */
public final class AvroBlockBuilder implements DataBlockBuilder {
  private static final int PREFIX_SIZE = 8;

  private final BinaryRowAvroEncoder encoder;
  private final MetaFieldValues metaFields;
  private final BlockBuffer content;
  private int recordCount;

  /**
   * {@code metaFields} null means the schema has no meta fields. {@code content} is reset and owned
   * by this builder until it is discarded (it may be reused by the next builder).
   */
  public AvroBlockBuilder(RowType rowType, MetaFieldValues metaFields, BlockBuffer content) {
    this.encoder = new BinaryRowAvroEncoder(rowType);
    this.metaFields = metaFields;
    this.content = content;
    content.reset();
    content.reserve(PREFIX_SIZE);
  }

  @Override
  public void add(BinaryStringData recordKey, long seqCounter, BinaryRowData row) {
    if (recordCount == 0 && content.size() != PREFIX_SIZE) {
      content.reset();
      content.reserve(PREFIX_SIZE);
    }
    int lengthPosition = content.reserve(4);
    int start = content.size();
    if (metaFields != null) {
      metaFields.encodeAvro(recordKey, seqCounter, content);
    }
    encoder.encode(row, content);
    content.putIntBigEndian(lengthPosition, content.size() - start);
    recordCount++;
  }

  @Override
  public int recordCount() {
    return recordCount;
  }

  @Override
  public long bufferedBytes() {
    return content.size();
  }

  @Override
  public BlockBuffer finishBlock() {
    content.putIntBigEndian(0, LogBlockLayout.BLOCK_CONTENT_VERSION);
    content.putIntBigEndian(4, recordCount);
    recordCount = 0;
    return content;
  }
}
