package dev.mortar.serde;

import dev.mortar.testing.Seeds;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.typeutils.SerializerTestBase;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.types.logical.RowType;

/**
 * Flink's serializer contract ({@link SerializerTestBase}) over random rows of a random schema.
 * JUnit builds one instance per test method, so every method runs against its own random schema
 * (seed logged; {@code -Dmortar.seed=N} pins it).
 */
class MortarRowSerializerTest extends SerializerTestBase<MortarRow> {
  private static final int ROWS = Seeds.size("mortar.serde.rows", 60);

  private final RandomMortarRows random =
      new RandomMortarRows(Seeds.seed("MortarRowSerializerTest schema"));
  private final RowType payloadType = random.rowType(6);
  private MortarRow[] testData;

  @Override
  protected TypeSerializer<MortarRow> createSerializer() {
    return new MortarRowSerializer(payloadType);
  }

  @Override
  protected int getLength() {
    return -1;
  }

  @Override
  protected Class<MortarRow> getTypeClass() {
    return MortarRow.class;
  }

  @Override
  protected MortarRow[] getTestData() {
    if (testData == null) {
      List<MortarRow> rows = new ArrayList<>();
      rows.add(new MortarRow());
      rows.add(edgeRow(Integer.MAX_VALUE, Operation.DELETE, null));
      rows.add(edgeRow(Integer.MIN_VALUE, Operation.UPDATE, allNulls()));
      for (int i = 0; i < ROWS; i++) {
        rows.add(random.mortarRow(payloadType));
      }
      testData = rows.toArray(new MortarRow[0]);
    }
    return testData;
  }

  private MortarRow edgeRow(int bucket, Operation operation, BinaryRowData payload) {
    return new MortarRow(
        BinaryStringData.fromString("😀-key-中"),
        BinaryStringData.fromString("région=€"),
        bucket,
        operation,
        payload);
  }

  /** A payload whose every field is null (NOT NULL fields get their default bytes: zero). */
  private BinaryRowData allNulls() {
    BinaryRowData row = random.binaryRow(payloadType);
    for (int i = 0; i < row.getArity(); i++) {
      if (payloadType.getTypeAt(i).isNullable()) {
        row.setNullAt(i);
      }
    }
    return row;
  }
}
