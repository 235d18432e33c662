package dev.mortar.logformat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import org.apache.avro.Schema;
import org.apache.flink.core.memory.MemorySegment;
import org.apache.flink.core.memory.MemorySegmentFactory;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinarySegmentUtils;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;

/** Our encoder's bytes equal Avro's own GenericDatumWriter's, for random schemas and rows. */
class BinaryRowAvroEncoderTest {

  @Test
  void bytesEqualAvrosGenericDatumWriter() throws Exception {
    long seed = RandomRows.seed("bytesEqualAvrosGenericDatumWriter");
    RandomRows random = new RandomRows(seed);
    BlockBuffer out = new BlockBuffer(16);
    int schemas = RandomRows.iterations(6) * 10;
    for (int s = 0; s < schemas; s++) {
      RowType rowType = s == 0 ? random.allTypes() : random.rowType(1 + s % 12);
      Schema schema = AvroSchemas.of(rowType, "record", false);
      BinaryRowAvroEncoder encoder = new BinaryRowAvroEncoder(rowType);
      for (int r = 0; r < 50; r++) {
        GenericRowData row = random.row(rowType, r);
        BinaryRowData binary = RandomRows.toBinary(rowType, row);
        out.reset();
        encoder.encode(binary, out);
        byte[] expected = AvroReference.encode(schema, rowType, row);
        assertThat(Arrays.copyOf(out.array(), out.size()))
            .as("row %d of schema %s (seed %d)", r, rowType, seed)
            .isEqualTo(expected);
      }
    }
  }

  /** Rows handed out by a paged buffer may span several memory segments at any offset. */
  @Test
  void rowsSpanningSegmentsEncodeLikeContiguousRows() throws Exception {
    long seed = RandomRows.seed("rowsSpanningSegmentsEncodeLikeContiguousRows");
    RandomRows random = new RandomRows(seed);
    java.util.SplittableRandom split = new java.util.SplittableRandom(seed);
    BlockBuffer contiguous = new BlockBuffer(16);
    BlockBuffer spanning = new BlockBuffer(16);
    for (int s = 0; s < 20; s++) {
      RowType rowType = s == 0 ? random.allTypes() : random.rowType(1 + s % 12);
      BinaryRowAvroEncoder encoder = new BinaryRowAvroEncoder(rowType);
      for (int r = 0; r < 20; r++) {
        BinaryRowData row = RandomRows.toBinary(rowType, random.row(rowType, r));
        byte[] bytes =
            BinarySegmentUtils.copyToBytes(
                row.getSegments(), row.getOffset(), row.getSizeInBytes());
        int segmentSize = 8 * (1 + split.nextInt(8));
        int offset = split.nextInt(segmentSize);
        int count = (offset + bytes.length + segmentSize - 1) / segmentSize;
        MemorySegment[] segments = new MemorySegment[Math.max(1, count)];
        for (int i = 0; i < segments.length; i++) {
          segments[i] = MemorySegmentFactory.wrap(new byte[segmentSize]);
        }
        BinarySegmentUtils.copyFromBytes(segments, offset, bytes, 0, bytes.length);
        BinaryRowData paged = new BinaryRowData(rowType.getFieldCount());
        paged.pointTo(segments, offset, bytes.length);

        contiguous.reset();
        encoder.encode(row, contiguous);
        spanning.reset();
        encoder.encode(paged, spanning);
        assertThat(Arrays.copyOf(spanning.array(), spanning.size()))
            .as("row %d of %s in %d-byte segments at offset %d", r, rowType, segmentSize, offset)
            .isEqualTo(Arrays.copyOf(contiguous.array(), contiguous.size()));
      }
    }
  }

  @Test
  void nullInANotNullFieldNamesTheField() {
    RowType rowType =
        RowType.of(
            new LogicalType[] {new BigIntType(false), new VarCharType(false, 10)},
            new String[] {"id", "name"});
    GenericRowData row = GenericRowData.of(1L, null);
    BinaryRowData binary = RandomRows.toBinary(rowType, row);
    assertThatThrownBy(() -> new BinaryRowAvroEncoder(rowType).encode(binary, new BlockBuffer(16)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("field name is NOT NULL in the row type but null in the row");
  }
}
