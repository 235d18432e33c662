package dev.mortar.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mortar.testing.Seeds;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.util.InstantiationUtil;
import org.junit.jupiter.api.Test;

/** Batches of shuffle rows: wire round trips, views without copies, corrupt input. */
class MortarRowBatchTest {
  private final MortarRowBatchSerializer batches = new MortarRowBatchSerializer();

  @Test
  void randomSchemasAndBatchSizesReadBackTheRowsInOrder() throws IOException {
    int schemas = Seeds.size("mortar.serde.schemas", 40);
    RandomMortarRows random = new RandomMortarRows(Seeds.seed("random batches round trip"));
    for (int s = 0; s < schemas; s++) {
      RowType type = random.rowType(10);
      MortarRowSerializer rows = new MortarRowSerializer(type);
      MortarRowBatchReader reader = new MortarRowBatchReader(type);
      MortarRowBatch batch = new MortarRowBatch(s, 8);
      MortarRowBatch received = batches.createInstance();
      for (int rowCount : new int[] {0, 1, 5, 64}) {
        List<MortarRow> expected = new ArrayList<>();
        batch.clear();
        for (int i = 0; i < rowCount; i++) {
          MortarRow row = random.mortarRow(type);
          expected.add(row);
          batch.add(row, rows);
        }
        byte[] wire = serialize(batch);

        MortarRowBatch fresh = batches.deserialize(new DataInputDeserializer(wire));
        received = batches.deserialize(received, new DataInputDeserializer(wire));
        for (MortarRowBatch read : List.of(fresh, received)) {
          assertThat(read.task()).isEqualTo(MortarRowBatch.NO_TASK);
          assertThat(read).isEqualTo(batch);
          reader.reset(read);
          for (MortarRow row : expected) {
            assertThat(reader.next()).as("schema %s", type).isEqualTo(row);
          }
          assertThat(reader.next()).isNull();
        }

        DataOutputSerializer copied = new DataOutputSerializer(wire.length);
        batches.copy(new DataInputDeserializer(wire), copied);
        assertThat(copied.getCopyOfBuffer()).isEqualTo(wire);
      }
    }
  }

  @Test
  void rowsAreViewsOverTheBatchArrayAndTheSameObjectsEachTime() throws IOException {
    RowType type = RowType.of(new BigIntType(false), VarCharType.STRING_TYPE);
    RandomMortarRows random = new RandomMortarRows(Seeds.seed("batch views"));
    MortarRowSerializer rows = new MortarRowSerializer(type);
    MortarRowBatch batch = new MortarRowBatch(0, 16);
    for (int i = 0; i < 10; i++) {
      MortarRow row = random.mortarRow(type);
      row.setPartitionPath(BinaryStringData.fromString("p=" + i));
      if (row.getPayload() == null) {
        row.setPayload(random.binaryRow(type));
      }
      batch.add(row, rows);
    }
    MortarRowBatchReader reader = new MortarRowBatchReader(type);
    reader.reset(batch);
    MortarRow first = reader.next();
    BinaryStringData key = first.getRecordKey();
    for (MortarRow row = first; row != null; row = reader.next()) {
      assertThat(row).isSameAs(first);
      assertThat(row.getRecordKey()).isSameAs(key);
      assertThat(row.getPayload().getSegments()[0].getArray()).isSameAs(batch.array());
      assertThat(row.getRecordKey().getSegments()[0].getArray()).isSameAs(batch.array());
      assertThat(row.getPartitionPath().getSegments()[0].getArray()).isSameAs(batch.array());
    }
  }

  /**
   * A receiver that holds up to 4 batches at a time and recycles them in random order: each batch
   * read keeps its own rows until it is recycled, whatever is deserialized meanwhile, and a
   * recycled batch comes back from the next deserialize instead of a new one.
   */
  @Test
  void recycledBatchesAreReusedAndNeverShareRowsWithHeldOnes() throws IOException {
    long seed = Seeds.seed("recycled batches");
    RandomMortarRows random = new RandomMortarRows(seed);
    Random choices = new Random(seed);
    RowType type = random.rowType(6);
    MortarRowSerializer rows = new MortarRowSerializer(type);
    MortarRowBatchReader reader = new MortarRowBatchReader(type);
    MortarRowBatchSerializer receiver = new MortarRowBatchSerializer();
    List<MortarRowBatch> held = new ArrayList<>();
    List<List<MortarRow>> heldRows = new ArrayList<>();
    List<MortarRowBatch> recycled = new ArrayList<>();
    int reused = 0;
    for (int step = 0; step < 400; step++) {
      MortarRowBatch sent = new MortarRowBatch(0, 8);
      List<MortarRow> expected = new ArrayList<>();
      for (int i = choices.nextInt(20); i > 0; i--) {
        MortarRow row = random.mortarRow(type);
        expected.add(row);
        sent.add(row, rows);
      }
      MortarRowBatch read = receiver.deserialize(new DataInputDeserializer(serialize(sent)));
      // batches compare by their rows, so these checks go by identity
      assertThat(held.stream().noneMatch(batch -> batch == read)).as("step %d", step).isTrue();
      if (recycled.removeIf(batch -> batch == read)) {
        reused++;
      }
      held.add(read);
      heldRows.add(expected);
      while (held.size() > 4 || (!held.isEmpty() && choices.nextInt(3) == 0)) {
        int victim = choices.nextInt(held.size());
        for (int h = 0; h < held.size(); h++) {
          reader.reset(held.get(h));
          for (MortarRow row : heldRows.get(h)) {
            assertThat(reader.next()).as("step %d, held batch %d", step, h).isEqualTo(row);
          }
          assertThat(reader.next()).isNull();
        }
        MortarRowBatch done = held.remove(victim);
        heldRows.remove(victim);
        done.recycle();
        assertThat(done.isEmpty()).isTrue();
        recycled.add(done);
      }
    }
    assertThat(reused).as("batches handed out again after recycle()").isGreaterThan(100);
  }

  @Test
  void everySerializerReadsItsFirstBatchIntoASpareItMadeBeforehand() throws Exception {
    MortarRowBatch sent = oneRowBatch("first batch spare");
    byte[] wire = serialize(sent);
    MortarRowBatchSerializer made = new MortarRowBatchSerializer();
    // how Flink hands a task its input serializer: Java-serialized in the task's configuration
    MortarRowBatchSerializer shipped = InstantiationUtil.clone(made);
    TypeSerializer<MortarRowBatch> duplicated = made.duplicate();
    List<MortarRowBatch> firsts = new ArrayList<>();
    for (TypeSerializer<MortarRowBatch> serializer : List.of(made, shipped, duplicated)) {
      MortarRowBatch first = serializer.deserialize(new DataInputDeserializer(wire));
      assertThat(first).isEqualTo(sent);
      assertThat(first.array()).hasSize(MortarRowBatch.RECEIVING_BYTES);
      assertThat(firsts.stream().noneMatch(other -> other == first)).isTrue();
      firsts.add(first);
      first.recycle();
      assertThat(serializer.deserialize(new DataInputDeserializer(wire))).isSameAs(first);
    }
  }

  @Test
  void theReaderFollowsABuiltBatchWhoseArrayGrew() throws IOException {
    RandomMortarRows random = new RandomMortarRows(Seeds.seed("grown batch"));
    RowType type = random.rowType(8);
    MortarRowSerializer rows = new MortarRowSerializer(type);
    MortarRowBatchReader reader = new MortarRowBatchReader(type);
    MortarRowBatch batch = new MortarRowBatch(0, 16);
    List<MortarRow> expected = new ArrayList<>();
    for (int round = 0; round < 6; round++) {
      for (int i = 0; i < 1 << round; i++) {
        MortarRow row = random.mortarRow(type);
        expected.add(row);
        batch.add(row, rows);
      }
      reader.reset(batch);
      for (MortarRow row : expected) {
        assertThat(reader.next()).as("round %d", round).isEqualTo(row);
      }
      assertThat(reader.next()).isNull();
    }
  }

  @Test
  void recyclingTwiceFailsAndBuiltBatchesAreNotRecycled() throws IOException {
    MortarRowBatch built = oneRowBatch("recycle rules");
    byte[] wire = serialize(built);

    built.recycle();
    assertThat(built.rowCount()).as("a built batch keeps its rows").isEqualTo(1);
    MortarRowBatch read = batches.deserialize(new DataInputDeserializer(wire));
    assertThat(read).isNotSameAs(built);

    read.recycle();
    assertThatThrownBy(read::recycle).hasMessageContaining("recycled twice");
    MortarRowBatchSerializer duplicate = (MortarRowBatchSerializer) batches.duplicate();
    assertThat(duplicate.deserialize(new DataInputDeserializer(wire)))
        .as("a duplicate has spares of its own")
        .isNotSameAs(read);
    assertThat(batches.deserialize(new DataInputDeserializer(wire))).isSameAs(read);
  }

  @Test
  void aRecycledBatchIsNeitherReadNorRefilledByItsUser() throws IOException {
    RowType type = RowType.of(new BigIntType(false));
    MortarRowBatch built = new MortarRowBatch(0, 16);
    built.add(
        new RandomMortarRows(Seeds.seed("recycled use")).mortarRow(type),
        new MortarRowSerializer(type));
    byte[] wire = serialize(built);
    MortarRowBatch read = batches.deserialize(new DataInputDeserializer(wire));
    read.recycle();

    assertThatThrownBy(() -> new MortarRowBatchReader(type).reset(read))
        .hasMessageContaining("recycled shuffle row batch was used");
    assertThatThrownBy(() -> batches.deserialize(read, new DataInputDeserializer(wire)))
        .hasMessageContaining("recycled shuffle row batch was used");
    assertThat(batches.deserialize(new DataInputDeserializer(wire)))
        .as("its serializer still refills it")
        .isSameAs(read)
        .isEqualTo(built);
  }

  @Test
  void forEachRowThenRecycleHandsOnEveryRowInOrderThenGivesTheBatchBack() throws IOException {
    RandomMortarRows random = new RandomMortarRows(Seeds.seed("drain and recycle"));
    RowType type = random.rowType(10);
    MortarRowSerializer rows = new MortarRowSerializer(type);
    MortarRowBatch built = new MortarRowBatch(0, 16);
    List<MortarRow> expected = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      expected.add(random.mortarRow(type));
      built.add(expected.get(i), rows);
    }
    byte[] wire = serialize(built);
    MortarRowBatch read = batches.deserialize(new DataInputDeserializer(wire));

    List<MortarRow> handedOn = new ArrayList<>();
    new MortarRowBatchReader(type).forEachRowThenRecycle(read, row -> handedOn.add(rows.copy(row)));

    assertThat(handedOn).as("schema %s", type).isEqualTo(expected);
    assertThat(read.isEmpty()).as("recycled").isTrue();
    assertThat(batches.deserialize(new DataInputDeserializer(wire))).isSameAs(read);
  }

  @Test
  void corruptBatchesFailNamingWhatIsWrong() throws IOException {
    RowType type = RowType.of(new BigIntType(false));
    RandomMortarRows random = new RandomMortarRows(Seeds.seed("corrupt batches"));
    MortarRowSerializer rows = new MortarRowSerializer(type);
    MortarRowBatch batch = new MortarRowBatch(0, 16);
    batch.add(random.mortarRow(type), rows);
    batch.add(random.mortarRow(type), rows);
    byte[] records = Arrays.copyOf(batch.array(), batch.sizeInBytes());
    MortarRowBatchReader reader = new MortarRowBatchReader(type);

    MortarRowBatch oneRowTooFew = withHeader(1, records);
    reader.reset(oneRowTooFew);
    reader.next();
    assertThatThrownBy(reader::next).hasMessageContaining("bytes after its last row");

    MortarRowBatch oneRowTooMany = withHeader(3, records);
    reader.reset(oneRowTooMany);
    reader.next();
    reader.next();
    assertThatThrownBy(reader::next).isInstanceOf(IOException.class);

    MortarRowBatch truncated = withHeader(2, Arrays.copyOf(records, records.length - 1));
    reader.reset(truncated);
    reader.next();
    assertThatThrownBy(reader::next).hasMessageContaining("1 rows left in the batch");
  }

  private MortarRowBatch withHeader(int rowCount, byte[] records) throws IOException {
    DataOutputSerializer out = new DataOutputSerializer(records.length + 10);
    MortarRowWireFormat.writeVarInt(out, rowCount);
    MortarRowWireFormat.writeVarInt(out, records.length);
    out.write(records);
    return batches.deserialize(new DataInputDeserializer(out.getCopyOfBuffer()));
  }

  /** A batch its sender built, of one random row of one BIGINT field. */
  private static MortarRowBatch oneRowBatch(String seedName) throws IOException {
    RowType type = RowType.of(new BigIntType(false));
    MortarRowBatch batch = new MortarRowBatch(0, 16);
    batch.add(
        new RandomMortarRows(Seeds.seed(seedName)).mortarRow(type), new MortarRowSerializer(type));
    return batch;
  }

  private byte[] serialize(MortarRowBatch batch) throws IOException {
    DataOutputSerializer out = new DataOutputSerializer(batch.sizeInBytes() + 10);
    batches.serialize(batch, out);
    return out.getCopyOfBuffer();
  }
}
