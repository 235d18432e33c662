package dev.mortar.logformat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mortar.testing.RandomRows;
import dev.mortar.testing.Seeds;
import org.apache.avro.Schema;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link AvroRowTypes} inverts {@link AvroSchemas}: the schema of the row type it finds is equal.
 */
class AvroRowTypesTest {
  private static final Logger LOG = LoggerFactory.getLogger(AvroRowTypesTest.class);
  private static final String RECORD = "hoodie.t.t_record";

  @Test
  void randomTableRowTypesComeBackWithTheSameSchema() {
    long seed = Seeds.seed("AvroRowTypesTest");
    LOG.info("seed {}", seed);
    RandomRows random = new RandomRows(seed);
    for (int i = 0; i < 200; i++) {
      RowType written = i == 0 ? random.tableRowTypeOfEveryKind() : random.tableRowType(12);
      Schema schema = AvroSchemas.of(written, RECORD, false);
      RowType read = AvroRowTypes.of(schema);
      assertThat(AvroSchemas.of(read, RECORD, false))
          .as("schema of %s read back as %s, seed %s", written, read, seed)
          .isEqualTo(schema);
    }
  }

  @Test
  void theWidestFlinkTypeOfEachAvroTypeComesBackUnchanged() {
    RowType widest =
        (RowType)
            DataTypes.ROW(
                    DataTypes.FIELD("id", DataTypes.BIGINT().notNull()),
                    DataTypes.FIELD("flag", DataTypes.BOOLEAN()),
                    DataTypes.FIELD("count", DataTypes.INT().notNull()),
                    DataTypes.FIELD("ratio", DataTypes.FLOAT()),
                    DataTypes.FIELD("amount", DataTypes.DOUBLE()),
                    DataTypes.FIELD("name", DataTypes.STRING()),
                    DataTypes.FIELD("payload", DataTypes.BYTES()),
                    DataTypes.FIELD("price", DataTypes.DECIMAL(20, 4)),
                    DataTypes.FIELD("day", DataTypes.DATE()),
                    DataTypes.FIELD("at", DataTypes.TIME(3)),
                    DataTypes.FIELD("ts3", DataTypes.TIMESTAMP(3)),
                    DataTypes.FIELD("ts6", DataTypes.TIMESTAMP(6).notNull()),
                    DataTypes.FIELD("ltz3", DataTypes.TIMESTAMP_LTZ(3)),
                    DataTypes.FIELD("ltz6", DataTypes.TIMESTAMP_LTZ(6)),
                    DataTypes.FIELD("tags", DataTypes.ARRAY(DataTypes.STRING().notNull())),
                    DataTypes.FIELD(
                        "attrs", DataTypes.MAP(DataTypes.STRING().notNull(), DataTypes.BIGINT())),
                    DataTypes.FIELD(
                        "address",
                        DataTypes.ROW(
                            DataTypes.FIELD("city", DataTypes.STRING()),
                            DataTypes.FIELD("zip", DataTypes.INT().notNull()))))
                .notNull()
                .getLogicalType();
    assertThat(AvroRowTypes.of(AvroSchemas.of(widest, RECORD, false))).isEqualTo(widest);
  }

  @Test
  void metaFieldsAreLeftOut() {
    RowType row =
        (RowType)
            DataTypes.ROW(DataTypes.FIELD("id", DataTypes.BIGINT().notNull()))
                .notNull()
                .getLogicalType();
    assertThat(AvroRowTypes.of(AvroSchemas.of(row, RECORD, true))).isEqualTo(row);
  }

  @Test
  void anotherUnionFailsNamingTheField() {
    Schema schema =
        new Schema.Parser()
            .parse(
                "{\"type\":\"record\",\"name\":\"t_record\",\"namespace\":\"hoodie.t\",\"fields\":["
                    + "{\"name\":\"id\",\"type\":\"long\"},"
                    + "{\"name\":\"either\",\"type\":[\"int\",\"string\"]}]}");
    assertThatThrownBy(() -> AvroRowTypes.of(schema))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("field hoodie.t.t_record.either")
        .hasMessageContaining("[\"null\", T]");
  }

  @Test
  void aFixedDecimalFailsNamingTheField() {
    Schema schema =
        new Schema.Parser()
            .parse(
                "{\"type\":\"record\",\"name\":\"t_record\",\"namespace\":\"hoodie.t\",\"fields\":["
                    + "{\"name\":\"price\",\"type\":{\"type\":\"fixed\",\"name\":\"p\",\"size\":9,"
                    + "\"logicalType\":\"decimal\",\"precision\":20,\"scale\":2}}]}");
    assertThatThrownBy(() -> AvroRowTypes.of(schema))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("field hoodie.t.t_record.price")
        .hasMessageContaining("not supported");
  }
}
