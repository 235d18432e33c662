package dev.mortar.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mortar.testing.Seeds;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinarySegmentUtils;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.flink.types.RowKind;
import org.junit.jupiter.api.Test;

/** What the serializer promises beyond Flink's contract: layout, reuse, stream copy, guards. */
class MortarRowSerializerBehaviourTest {
  private static final RowType KEY_AND_NAME =
      RowType.of(new BigIntType(false), VarCharType.STRING_TYPE);
  private final MortarRowSerializer serializer = new MortarRowSerializer(KEY_AND_NAME);

  @Test
  void randomSchemasRoundTripWithAndWithoutReuseAndCopyStreamsByteForByte() throws IOException {
    int schemas = Seeds.size("mortar.serde.schemas", 40);
    int rowsPerSchema = Seeds.size("mortar.serde.rows", 60);
    RandomMortarRows random = new RandomMortarRows(Seeds.seed("random schemas round trip"));
    for (int s = 0; s < schemas; s++) {
      RowType type = random.rowType(10);
      MortarRowSerializer schemaSerializer = new MortarRowSerializer(type);
      List<MortarRow> rows = new ArrayList<>();
      DataOutputSerializer out = new DataOutputSerializer(4096);
      for (int i = 0; i < rowsPerSchema; i++) {
        MortarRow row = random.mortarRow(type);
        rows.add(row);
        schemaSerializer.serialize(row, out);
      }
      byte[] written = out.getCopyOfBuffer();

      DataInputDeserializer in = new DataInputDeserializer(written);
      MortarRow reuse = new MortarRow();
      for (MortarRow expected : rows) {
        reuse = schemaSerializer.deserialize(reuse, in);
        assertThat(reuse).as("schema %s", type).isEqualTo(expected);
      }
      assertThat(in.available()).isZero();

      in = new DataInputDeserializer(written);
      DataOutputSerializer copied = new DataOutputSerializer(written.length);
      for (int i = 0; i < rows.size(); i++) {
        schemaSerializer.copy(in, copied);
      }
      assertThat(copied.getCopyOfBuffer()).as("stream copy of schema %s", type).isEqualTo(written);
    }
  }

  @Test
  void wireBytesAreHeaderBucketKeyAndPayloadOnly() throws IOException {
    BinaryRowData payload = payload(42L, "name");
    MortarRow row =
        new MortarRow(
            BinaryStringData.fromString("42"),
            BinaryStringData.EMPTY_UTF8,
            300,
            Operation.UPDATE,
            payload);
    byte[] bytes = serialize(row);

    int payloadSize = payload.getSizeInBytes();
    assertThat(payloadSize).isEqualTo(24);
    assertThat(bytes).hasSize(1 + 2 + 1 + 1 + 2 + payloadSize);
    assertThat(bytes[0]).as("header: UPDATE, payload").isEqualTo((byte) 0b1001);
    assertThat(bytes[1]).as("bucket low 7 bits").isEqualTo((byte) (0x80 | (300 & 0x7F)));
    assertThat(bytes[2]).as("bucket high bits").isEqualTo((byte) (300 >>> 7));
    assertThat(bytes[3]).as("key length").isEqualTo((byte) 2);
    assertThat(bytes[4]).as("payload length").isEqualTo((byte) payloadSize);
    assertThat(new String(bytes, 5, 2, StandardCharsets.UTF_8)).isEqualTo("42");
    assertThat(Arrays.copyOfRange(bytes, 7, bytes.length))
        .isEqualTo(BinarySegmentUtils.copyToBytes(payload.getSegments(), 0, payloadSize));
  }

  @Test
  void partitionPathCostsOnlyWhenNotEmpty() throws IOException {
    MortarRow row =
        new MortarRow(
            BinaryStringData.fromString("k"),
            BinaryStringData.EMPTY_UTF8,
            1,
            Operation.DELETE,
            null);
    assertThat(serialize(row)).containsExactly(0b10, 1, 1, 'k');

    row.setPartitionPath(BinaryStringData.fromString("é"));
    assertThat(serialize(row)).containsExactly(0b110, 1, 1, 2, 'k', (byte) 0xC3, (byte) 0xA9);
  }

  @Test
  void deserializingIntoReuseKeepsThePayloadArrayWhileItIsLargeEnough() throws IOException {
    MortarRow large = rowWithName("a longer name than the second row has, well past 7 bytes");
    MortarRow small = rowWithName("short name");
    DataOutputSerializer out = new DataOutputSerializer(256);
    serializer.serialize(large, out);
    serializer.serialize(small, out);
    serializer.serialize(large, out);
    DataInputDeserializer in = new DataInputDeserializer(out.getCopyOfBuffer());

    MortarRow reuse = serializer.deserialize(new MortarRow(), in);
    byte[] array = reuse.getPayload().getSegments()[0].getArray();
    assertThat(serializer.deserialize(reuse, in)).isSameAs(reuse).isEqualTo(small);
    assertThat(reuse.getPayload().getSegments()[0].getArray()).isSameAs(array);
    assertThat(serializer.deserialize(reuse, in)).isEqualTo(large);
    assertThat(reuse.getPayload().getSegments()[0].getArray()).isSameAs(array);

    MortarRow copy = serializer.copy(small, reuse);
    assertThat(copy).isSameAs(reuse).isEqualTo(small);
    assertThat(copy.getPayload().getSegments()[0].getArray()).isSameAs(array);
  }

  @Test
  void payloadOfTheWrongArityIsRejectedWithBothCounts() {
    BinaryRowData threeFields =
        new RowDataSerializer(RowType.of(new BigIntType(), new BigIntType(), new BigIntType()))
            .toBinaryRow(GenericRowData.of(1L, 2L, 3L))
            .copy();
    MortarRow row =
        new MortarRow(
            BinaryStringData.fromString("k"),
            BinaryStringData.EMPTY_UTF8,
            0,
            Operation.INSERT,
            threeFields);
    assertThatThrownBy(() -> serialize(row))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("payload has 3 fields but this serializer is built for 2");
  }

  @Test
  void corruptHeaderIsRejectedNamingTheByte() {
    for (byte header : new byte[] {0b11, 0x10, (byte) 0x80}) {
      DataInputDeserializer in = new DataInputDeserializer(new byte[] {header, 0, 0});
      assertThatThrownBy(() -> serializer.deserialize(in))
          .isInstanceOf(IOException.class)
          .hasMessageContaining(String.format("header byte 0x%02x", header & 0xFF));
    }
  }

  @Test
  void varIntsRoundTripEveryWidthAndReportTheirSize() throws IOException {
    int[] values = {0, 1, 127, 128, 16_383, 16_384, 1 << 21, 1 << 28, Integer.MAX_VALUE, -1};
    for (int value : values) {
      DataOutputSerializer out = new DataOutputSerializer(8);
      MortarRowWireFormat.writeVarInt(out, value);
      assertThat(out.length())
          .as("size of %s", value)
          .isEqualTo(MortarRowWireFormat.varIntSize(value));
      assertThat(MortarRowWireFormat.readVarInt(new DataInputDeserializer(out.getCopyOfBuffer())))
          .isEqualTo(value);
    }
    assertThat(MortarRowWireFormat.varIntSize(-1)).isEqualTo(5);
  }

  @Test
  void operationsMapToRowKindsAndStableCodes() {
    assertThat(Operation.fromRowKind(RowKind.INSERT)).isEqualTo(Operation.INSERT);
    assertThat(Operation.fromRowKind(RowKind.UPDATE_AFTER)).isEqualTo(Operation.UPDATE);
    assertThat(Operation.fromRowKind(RowKind.DELETE)).isEqualTo(Operation.DELETE);
    assertThatThrownBy(() -> Operation.fromRowKind(RowKind.UPDATE_BEFORE))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("UPDATE_BEFORE");
    for (Operation operation : Operation.values()) {
      assertThat(Operation.ofCode(operation.code())).isEqualTo(operation);
      assertThat(Operation.fromRowKind(operation.toRowKind())).isEqualTo(operation);
    }
    assertThat(Operation.INSERT.code()).isEqualTo((byte) 0);
    assertThat(Operation.UPDATE.code()).isEqualTo((byte) 1);
    assertThat(Operation.DELETE.code()).isEqualTo((byte) 2);
    assertThatThrownBy(() -> Operation.ofCode((byte) 3)).hasMessageContaining("code 3");
  }

  private MortarRow rowWithName(String name) {
    return new MortarRow(
        BinaryStringData.fromString("key"),
        BinaryStringData.fromString("p"),
        7,
        Operation.INSERT,
        payload(7L, name));
  }

  private static BinaryRowData payload(long key, String name) {
    return new RowDataSerializer(KEY_AND_NAME)
        .toBinaryRow(GenericRowData.of(key, StringData.fromString(name)))
        .copy();
  }

  private byte[] serialize(MortarRow row) throws IOException {
    DataOutputSerializer out = new DataOutputSerializer(64);
    serializer.serialize(row, out);
    return out.getCopyOfBuffer();
  }
}
