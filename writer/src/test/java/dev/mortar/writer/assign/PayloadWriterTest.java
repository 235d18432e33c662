package dev.mortar.writer.assign;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.Random;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.BooleanType;
import org.apache.flink.table.types.logical.DateType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.FloatType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.SmallIntType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.TinyIntType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.types.RowKind;
import org.junit.jupiter.api.Test;

/** The payload bytes equal Flink's {@code RowDataSerializer.toBinaryRow} for random rows. */
class PayloadWriterTest {
  private static final long SEED = Long.getLong("mortar.seed", System.nanoTime());
  private static final RowType ROW =
      RowType.of(
          new LogicalType[] {
            new BooleanType(),
            new TinyIntType(),
            new SmallIntType(),
            new IntType(),
            new BigIntType(),
            new FloatType(),
            new DoubleType(),
            new VarCharType(true, 100),
            new DateType(),
            new TimestampType(3),
            new TimestampType(9),
            new DecimalType(10, 2),
            new DecimalType(30, 5)
          });

  @Test
  void bytesEqualFlinksConversion() {
    System.out.println(
        "PayloadWriterTest seed " + SEED + " (re-run with -Dmortar.seed=" + SEED + ")");
    Random random = new Random(SEED);
    PayloadWriter writer = new PayloadWriter(ROW);
    RowDataSerializer reference = new RowDataSerializer(ROW);
    for (int run = 0; run < 2_000; run++) {
      GenericRowData row = randomRow(random);
      BinaryRowData expected = reference.toBinaryRow(row).copy();
      assertThat(writer.toBinaryRow(row)).as("row %s", row).isEqualTo(expected);
      assertThat(writer.toBinaryRow(expected)).isSameAs(expected);
    }
  }

  private static GenericRowData randomRow(Random random) {
    long millis = random.nextLong() >> 20;
    Object[] values = {
      random.nextBoolean(),
      (byte) random.nextInt(),
      (short) random.nextInt(),
      random.nextInt(),
      random.nextLong(),
      random.nextFloat(),
      random.nextDouble(),
      StringData.fromString("s".repeat(random.nextInt(20)) + random.nextInt()),
      random.nextInt(50_000),
      TimestampData.fromEpochMillis(millis),
      TimestampData.fromEpochMillis(millis, random.nextInt(1_000_000)),
      DecimalData.fromBigDecimal(BigDecimal.valueOf(random.nextInt(), 2), 10, 2),
      DecimalData.fromBigDecimal(BigDecimal.valueOf(random.nextLong(), 5), 30, 5)
    };
    GenericRowData row = new GenericRowData(values.length);
    row.setRowKind(RowKind.values()[random.nextInt(4)]);
    for (int i = 0; i < values.length; i++) {
      row.setField(i, random.nextInt(8) == 0 ? null : values[i]);
    }
    return row;
  }
}
