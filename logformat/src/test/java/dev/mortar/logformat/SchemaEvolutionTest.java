package dev.mortar.logformat;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;

/**
 * Which older schemas {@link SchemaEvolution} reads as a table's row type, and which it refuses.
 */
class SchemaEvolutionTest {
  private static final String RECORD = "hoodie.t.t_record";

  private static final RowType TABLE =
      row(
          DataTypes.FIELD("id", DataTypes.BIGINT().notNull()),
          DataTypes.FIELD("count", DataTypes.BIGINT()),
          DataTypes.FIELD("ratio", DataTypes.DOUBLE()),
          DataTypes.FIELD("score", DataTypes.FLOAT()),
          DataTypes.FIELD("small", DataTypes.SMALLINT()),
          DataTypes.FIELD("note", DataTypes.STRING()));

  @Test
  void widenedColumnsAndAddedNullableOnesReadAsTheTable() {
    RowType older =
        row(
            DataTypes.FIELD("id", DataTypes.BIGINT().notNull()),
            DataTypes.FIELD("count", DataTypes.INT()),
            DataTypes.FIELD("ratio", DataTypes.FLOAT()),
            DataTypes.FIELD("score", DataTypes.BIGINT()),
            DataTypes.FIELD("small", DataTypes.SMALLINT()));

    assertThat(SchemaEvolution.readableAs(older, TABLE)).isTrue();
    assertThat(SchemaEvolution.writtenType(TABLE, AvroSchemas.of(older, RECORD, true), true))
        .contains(older);
    assertThat(SchemaEvolution.writtenType(TABLE, AvroSchemas.of(TABLE, RECORD, false), false))
        .contains(TABLE);
  }

  @Test
  void narrowedRetypedRenamedAndNullabilityChangedColumnsAreRefused() {
    RowType narrowed = withField(1, "count", DataTypes.DOUBLE().getLogicalType());
    RowType retyped = withField(2, "ratio", DataTypes.STRING().getLogicalType());
    RowType renamed = withField(1, "total", DataTypes.BIGINT().getLogicalType());
    RowType notNull = withField(1, "count", DataTypes.INT().notNull().getLogicalType());

    for (RowType older : new RowType[] {narrowed, retyped, renamed, notNull}) {
      assertThat(SchemaEvolution.readableAs(older, TABLE)).as("%s", older).isFalse();
      assertThat(SchemaEvolution.writtenType(TABLE, AvroSchemas.of(older, RECORD, true), true))
          .as("%s", older)
          .isEmpty();
    }
  }

  @Test
  void onlyNumericPromotionsAndDecimalsOfMoreDigitsWiden() {
    LogicalType integer = DataTypes.INT().getLogicalType();
    LogicalType bigint = DataTypes.BIGINT().getLogicalType();
    LogicalType real = DataTypes.FLOAT().getLogicalType();
    LogicalType dbl = DataTypes.DOUBLE().getLogicalType();
    assertThat(SchemaEvolution.isPromotion(integer, bigint)).isTrue();
    assertThat(SchemaEvolution.isPromotion(integer, real)).isTrue();
    assertThat(SchemaEvolution.isPromotion(integer, dbl)).isTrue();
    assertThat(SchemaEvolution.isPromotion(bigint, real)).isTrue();
    assertThat(SchemaEvolution.isPromotion(bigint, dbl)).isTrue();
    assertThat(SchemaEvolution.isPromotion(real, dbl)).isTrue();
    assertThat(SchemaEvolution.isPromotion(bigint, integer)).isFalse();
    assertThat(SchemaEvolution.isPromotion(dbl, real)).isFalse();
    assertThat(SchemaEvolution.isPromotion(integer, integer)).isFalse();
    assertThat(SchemaEvolution.isPromotion(DataTypes.DATE().getLogicalType(), bigint)).isFalse();
    LogicalType string = DataTypes.STRING().getLogicalType();
    assertThat(SchemaEvolution.isPromotion(integer, string)).as("a number to a string").isTrue();
    assertThat(SchemaEvolution.isPromotion(dbl, string)).isTrue();
    assertThat(SchemaEvolution.isPromotion(integer, DataTypes.CHAR(10).getLogicalType())).isFalse();
    assertThat(SchemaEvolution.isPromotion(string, integer)).isFalse();
    assertThat(SchemaEvolution.isPromotion(DataTypes.DATE().getLogicalType(), string)).isFalse();
    LogicalType decimal = DataTypes.DECIMAL(10, 2).getLogicalType();
    assertThat(SchemaEvolution.isPromotion(decimal, DataTypes.DECIMAL(20, 2).getLogicalType()))
        .as("more digits, the same scale")
        .isTrue();
    assertThat(SchemaEvolution.isPromotion(decimal, DataTypes.DECIMAL(12, 4).getLogicalType()))
        .as("a wider scale, which Hudi's readers read wrong")
        .isFalse();
    assertThat(SchemaEvolution.isPromotion(decimal, DataTypes.DECIMAL(9, 2).getLogicalType()))
        .as("fewer digits")
        .isFalse();
    assertThat(SchemaEvolution.isPromotion(decimal, decimal)).isFalse();
  }

  @Test
  void aFloatWidensToTheDoubleOfItsShortestDecimalFormAsInHudisReaders() {
    assertThat(SchemaEvolution.widen(0.1f)).isEqualTo(0.1).isNotEqualTo((double) 0.1f);
    assertThat(SchemaEvolution.widen(9259.143f)).isEqualTo(9259.143);
    assertThat(SchemaEvolution.widen(-0.0f)).isEqualTo(-0.0);
    assertThat(SchemaEvolution.widen(Float.NaN)).isNaN();
    assertThat(SchemaEvolution.widen(Float.NEGATIVE_INFINITY)).isEqualTo(Double.NEGATIVE_INFINITY);
  }

  /** {@link #TABLE} without its last column, with field {@code index} replaced. */
  private static RowType withField(int index, String name, LogicalType type) {
    java.util.List<RowType.RowField> fields =
        new java.util.ArrayList<>(TABLE.getFields().subList(0, TABLE.getFieldCount() - 1));
    fields.set(index, new RowType.RowField(name, type));
    return new RowType(false, fields);
  }

  private static RowType row(DataTypes.Field... fields) {
    return (RowType) DataTypes.ROW(fields).notNull().getLogicalType();
  }
}
