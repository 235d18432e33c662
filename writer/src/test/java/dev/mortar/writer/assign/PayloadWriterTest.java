package dev.mortar.writer.assign;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mortar.serde.RowPaddingRemover;
import dev.mortar.serde.testutil.RandomRows;
import dev.mortar.serde.testutil.Seeds;
import java.util.Random;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.RowKind;
import org.junit.jupiter.api.Test;

/**
 * The payload bytes equal Flink's {@code RowDataSerializer.toBinaryRow} without its padding ({@link
 * RowPaddingRemover}) for random rows of random schemas that hold every Hudi-storable type ({@link
 * RandomRows}), nulls and every row kind.
 */
class PayloadWriterTest {
  private static final int SCHEMAS = Seeds.size("mortar.payload.schemas", 20);
  private static final int ROWS_PER_SCHEMA = 100;

  @Test
  void bytesEqualFlinksConversion() {
    long seed = Seeds.seed("PayloadWriterTest");
    RandomRows random = new RandomRows(seed);
    Random kinds = new Random(seed);
    for (int schema = 0; schema < SCHEMAS; schema++) {
      RowType rowType = random.rowType(8);
      PayloadWriter writer = new PayloadWriter(rowType);
      RowDataSerializer reference = new RowDataSerializer(rowType);
      RowPaddingRemover paddingRemover = new RowPaddingRemover(rowType);
      for (int run = 0; run < ROWS_PER_SCHEMA; run++) {
        GenericRowData row = random.genericRow(rowType);
        row.setRowKind(RowKind.values()[kinds.nextInt(RowKind.values().length)]);
        BinaryRowData expected = reference.toBinaryRow(row).copy();
        paddingRemover.removePadding(expected);
        assertThat(writer.toBinaryRow(row)).as("seed %s, row %s", seed, row).isEqualTo(expected);
        assertThat(writer.toBinaryRow(expected)).isSameAs(expected);
      }
    }
  }
}
