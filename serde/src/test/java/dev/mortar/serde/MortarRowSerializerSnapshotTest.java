package dev.mortar.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mortar.testing.Seeds;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSchemaCompatibility;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshotSerializationUtil;
import org.apache.flink.api.common.typeutils.base.StringSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;

/** Restoring from a checkpoint: the snapshot round trip and the compatibility rules. */
class MortarRowSerializerSnapshotTest {
  private static final ClassLoader LOADER = MortarRowSerializerSnapshotTest.class.getClassLoader();

  @Test
  void serializerRestoredFromItsSnapshotReadsWhatTheOldOneWrote() throws IOException {
    RandomMortarRows random = new RandomMortarRows(Seeds.seed("snapshot restore"));
    RowType type = random.rowType(8);
    MortarRowSerializer old = new MortarRowSerializer(type);
    List<MortarRow> rows = new ArrayList<>();
    DataOutputSerializer state = new DataOutputSerializer(4096);
    for (int i = 0; i < 50; i++) {
      rows.add(random.mortarRow(type));
      old.serialize(rows.get(i), state);
    }
    TypeSerializerSnapshot<MortarRow> restored = writeAndRead(old.snapshotConfiguration());

    TypeSerializer<MortarRow> restoredSerializer = restored.restoreSerializer();
    assertThat(restoredSerializer).isEqualTo(old);
    DataInputDeserializer in = new DataInputDeserializer(state.getCopyOfBuffer());
    for (MortarRow expected : rows) {
      assertThat(restoredSerializer.deserialize(in)).isEqualTo(expected);
    }
    assertThat(compatibility(type, type).isCompatibleAsIs()).isTrue();
  }

  @Test
  void changesTheBinaryRowDoesNotEncodeAreCompatibleAsIs() throws IOException {
    RowType old = RowType.of(new BigIntType(false), new VarCharType(10));
    assertThat(
            compatibility(
                    old,
                    RowType.of(
                        new LogicalType[] {new BigIntType(false), new VarCharType(10)},
                        new String[] {"renamed_id", "renamed_name"}))
                .isCompatibleAsIs())
        .as("renamed fields")
        .isTrue();
    assertThat(
            compatibility(old, RowType.of(new BigIntType(true), new VarCharType(10)))
                .isCompatibleAsIs())
        .as("NOT NULL becomes nullable")
        .isTrue();
    assertThat(
            compatibility(old, RowType.of(new BigIntType(false), new VarCharType(20)))
                .isCompatibleAsIs())
        .as("longer VARCHAR")
        .isTrue();
  }

  @Test
  void changesOfTheBinaryLayoutAreIncompatible() throws IOException {
    RowType old =
        RowType.of(new BigIntType(), new DecimalType(10, 2), new TimestampType(3), new IntType());
    List<RowType> changed =
        List.of(
            RowType.of(new IntType(), new DecimalType(10, 2), new TimestampType(3), new IntType()),
            RowType.of(
                new BigIntType(), new DecimalType(20, 2), new TimestampType(3), new IntType()),
            RowType.of(
                new BigIntType(), new DecimalType(10, 2), new TimestampType(6), new IntType()),
            RowType.of(new BigIntType(), new DecimalType(10, 2), new TimestampType(3)),
            RowType.of(
                new BigIntType(),
                new DecimalType(10, 2),
                new TimestampType(3),
                new IntType(),
                new IntType()),
            RowType.of(
                new BigIntType(false),
                new DecimalType(10, 2),
                new TimestampType(3),
                new IntType()));
    for (RowType type : changed) {
      assertThat(compatibility(old, type).isIncompatible()).as("%s -> %s", old, type).isTrue();
    }
  }

  @Test
  void anotherSerializersSnapshotIsIncompatible() {
    TypeSerializerSnapshot<MortarRow> newSnapshot =
        new MortarRowSerializer(RowType.of(new IntType())).snapshotConfiguration();
    @SuppressWarnings({"unchecked", "rawtypes"})
    TypeSerializerSnapshot<MortarRow> foreign =
        (TypeSerializerSnapshot) StringSerializer.INSTANCE.snapshotConfiguration();
    assertThat(newSnapshot.resolveSchemaCompatibility(foreign).isIncompatible()).isTrue();
  }

  @Test
  void unknownSnapshotVersionIsRejectedNamingBothVersions() {
    assertThatThrownBy(
            () ->
                new MortarRowSerializerSnapshot()
                    .readSnapshot(7, new DataInputDeserializer(new byte[0]), LOADER))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("version 7")
        .hasMessageContaining("reads version 1");
  }

  /** The compatibility the NEW serializer's snapshot reports for state written by the old one. */
  private static TypeSerializerSchemaCompatibility<MortarRow> compatibility(
      RowType oldType, RowType newType) throws IOException {
    TypeSerializerSnapshot<MortarRow> restoredOld =
        writeAndRead(new MortarRowSerializer(oldType).snapshotConfiguration());
    return new MortarRowSerializer(newType)
        .snapshotConfiguration()
        .resolveSchemaCompatibility(restoredOld);
  }

  private static TypeSerializerSnapshot<MortarRow> writeAndRead(
      TypeSerializerSnapshot<MortarRow> snapshot) throws IOException {
    DataOutputSerializer out = new DataOutputSerializer(256);
    TypeSerializerSnapshotSerializationUtil.writeSerializerSnapshot(out, snapshot);
    return TypeSerializerSnapshotSerializationUtil.readSerializerSnapshot(
        new DataInputDeserializer(out.getCopyOfBuffer()), LOADER);
  }
}
