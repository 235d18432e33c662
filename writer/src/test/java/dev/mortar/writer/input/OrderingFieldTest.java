package dev.mortar.writer.input;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mortar.logformat.OrderingValue;
import dev.mortar.testing.Seeds;
import java.util.SplittableRandom;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;

class OrderingFieldTest {
  private static RowType rowOf(org.apache.flink.table.types.DataType type) {
    return (RowType) DataTypes.ROW(DataTypes.FIELD("v", type)).getLogicalType();
  }

  @Test
  void doublesMapToLongsThatSortLikeTheDoubles() {
    OrderingField field = OrderingField.of(rowOf(DataTypes.DOUBLE()), "v");
    long seed = Seeds.seed("OrderingFieldTest");
    SplittableRandom random = new SplittableRandom(seed);
    double[] edges = {-Double.MAX_VALUE, -1.5, -0.0, 0.0, Double.MIN_VALUE, 2.5, Double.MAX_VALUE};
    for (int i = 0; i < 10_000; i++) {
      double a =
          i < edges.length
              ? edges[i]
              : (random.nextDouble() - 0.5) * Math.pow(10, random.nextInt(20));
      double b = (random.nextDouble() - 0.5) * Math.pow(10, random.nextInt(20));
      long la = field.toLong(GenericRowData.of(a));
      long lb = field.toLong(GenericRowData.of(b));
      assertThat(Long.signum(Long.compare(la, lb)))
          .as("seed %s: %s vs %s", seed, a, b)
          .isEqualTo(Integer.signum(Double.compare(a, b)));
      assertThat(field.toOrderingValue(la)).isEqualTo(OrderingValue.ofDouble(a));
    }
  }

  @Test
  void timestampsUseTheAvroUnitOfTheirPrecision() {
    TimestampData ts = TimestampData.fromEpochMillis(1_700_000_000_123L, 456_000);
    assertThat(OrderingField.of(rowOf(DataTypes.TIMESTAMP(3)), "v").toLong(GenericRowData.of(ts)))
        .isEqualTo(1_700_000_000_123L);
    assertThat(OrderingField.of(rowOf(DataTypes.TIMESTAMP(6)), "v").toLong(GenericRowData.of(ts)))
        .isEqualTo(1_700_000_000_123_456L);
  }

  @Test
  void noFieldOrNullIsTheNaturalOrder() {
    assertThat(OrderingField.NONE.toLong(GenericRowData.of(5L))).isZero();
    assertThat(OrderingField.NONE.toOrderingValue(0)).isEqualTo(OrderingValue.natural());
    OrderingField field = OrderingField.of(rowOf(DataTypes.BIGINT()), "v");
    assertThat(field.toLong(GenericRowData.of((Object) null))).isZero();
    assertThat(field.toOrderingValue(42)).isEqualTo(OrderingValue.ofLong(42));
  }
}
