package dev.mortar.serde;

import dev.mortar.testing.Seeds;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.typeutils.SerializerTestBase;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.table.types.logical.RowType;

/**
 * Flink's serializer contract ({@link SerializerTestBase}) over batches of random rows of a random
 * schema, from empty to a few hundred rows. Seed logged; {@code -Dmortar.seed=N} pins it.
 */
class MortarRowBatchSerializerTest extends SerializerTestBase<MortarRowBatch> {
  private final RandomMortarRows random =
      new RandomMortarRows(Seeds.seed("MortarRowBatchSerializerTest"));
  private final RowType payloadType = random.rowType(6);
  private final MortarRowSerializer rows = new MortarRowSerializer(payloadType);
  private MortarRowBatch[] testData;

  @Override
  protected TypeSerializer<MortarRowBatch> createSerializer() {
    return new MortarRowBatchSerializer();
  }

  @Override
  protected int getLength() {
    return -1;
  }

  @Override
  protected Class<MortarRowBatch> getTypeClass() {
    return MortarRowBatch.class;
  }

  @Override
  protected MortarRowBatch[] getTestData() {
    if (testData == null) {
      List<MortarRowBatch> batches = new ArrayList<>();
      for (int rowCount : new int[] {0, 1, 2, 17, 300}) {
        batches.add(batch(rowCount));
      }
      testData = batches.toArray(new MortarRowBatch[0]);
    }
    return testData;
  }

  private MortarRowBatch batch(int rowCount) {
    MortarRowBatch batch = new MortarRowBatch(rowCount % 3, 16);
    try {
      for (int i = 0; i < rowCount; i++) {
        batch.add(random.mortarRow(payloadType), rows);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return batch;
  }
}
