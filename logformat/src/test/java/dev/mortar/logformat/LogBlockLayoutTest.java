package dev.mortar.logformat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.junit.jupiter.api.Test;

/** Byte vectors of shared/spec/hudi-format.md (§6, §9.3) and the Avro primitives. */
class LogBlockLayoutTest {

  @Test
  void deleteBlockContentMatchesTheSpecVector() {
    DeleteBlockBuilder deletes =
        new DeleteBlockBuilder("2024-01-01".getBytes(StandardCharsets.UTF_8));
    deletes.add(BinaryStringData.fromString("id2"), OrderingValue.ofLong(200));
    BlockBuffer content = deletes.finishBlock();
    // 00000003 00000016 | 02 02 06 'id2' 02 14 '2024-01-01' 06 90 03 00
    String expected =
        "00000003"
            + "00000016"
            + "0202"
            + "06"
            + hex("id2")
            + "02"
            + "14"
            + hex("2024-01-01")
            + "06"
            + "9003"
            + "00";
    assertThat(HexFormat.of().formatHex(content.array(), 0, content.size())).isEqualTo(expected);
  }

  @Test
  void naturalOrderingIsIntWrapperZero() {
    BlockBuffer out = new BlockBuffer(8);
    OrderingValue.natural().encodeAvro(out);
    assertThat(HexFormat.of().formatHex(out.array(), 0, out.size())).isEqualTo("0400");
  }

  @Test
  void deleteWithoutOrderingValueIsRejected() {
    DeleteBlockBuilder deletes = new DeleteBlockBuilder(new byte[0]);
    assertThatThrownBy(() -> deletes.add(BinaryStringData.fromString("k"), null))
        .hasMessageContaining("OrderingValue.natural()");
  }

  @Test
  void blockFramingHasConsistentLengthAndReversePointer() throws Exception {
    byte[] header = LogBlockLayout.header("20250101000000000", "{\"type\":\"null\"}");
    BlockBuffer content = new BlockBuffer(16);
    content.writeBytes(new byte[] {1, 2, 3, 4, 5}, 0, 5);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    long written =
        LogBlockLayout.writeBlock(
            out, new BlockBuffer(16), LogBlockLayout.AVRO_DATA_BLOCK, header, content);
    ByteBuffer block = ByteBuffer.wrap(out.toByteArray());

    assertThat(written).isEqualTo(block.limit());
    assertThat(Arrays.copyOf(block.array(), 6)).isEqualTo(LogBlockLayout.MAGIC);
    long length = block.getLong(6);
    assertThat(14 + length).isEqualTo(block.limit());
    assertThat(block.getInt(14)).isEqualTo(1);
    assertThat(block.getInt(18)).isEqualTo(3);
    // header: 2 entries, INSTANT_TIME (0) of 17 bytes first
    assertThat(block.getInt(22)).isEqualTo(2);
    assertThat(block.getInt(26)).isEqualTo(0);
    assertThat(block.getInt(30)).isEqualTo(17);
    int afterHeader = 22 + header.length;
    assertThat(block.getLong(afterHeader)).isEqualTo(5);
    assertThat(block.getInt(afterHeader + 8 + 5)).as("empty footer").isZero();
    assertThat(block.getLong(block.limit() - 8)).isEqualTo(length + 6);
  }

  @Test
  void avroPrimitivesMatchAvrosEncoder() throws Exception {
    long[] longs = {
      0,
      1,
      -1,
      63,
      64,
      -64,
      -65,
      8191,
      8192,
      Integer.MAX_VALUE,
      Integer.MIN_VALUE,
      Long.MAX_VALUE,
      Long.MIN_VALUE
    };
    BlockBuffer ours = new BlockBuffer(1);
    ByteArrayOutputStream reference = new ByteArrayOutputStream();
    BinaryEncoder avro = EncoderFactory.get().directBinaryEncoder(reference, null);
    for (long value : longs) {
      ours.writeAvroLong(value);
      avro.writeLong(value);
      ours.writeAvroFloat(value);
      avro.writeFloat(value);
      ours.writeAvroDouble(-value / 3.0);
      avro.writeDouble(-value / 3.0);
    }
    ours.writeAvroBytes("héllo".getBytes(StandardCharsets.UTF_8));
    avro.writeString("héllo");
    avro.flush();
    assertThat(Arrays.copyOf(ours.array(), ours.size())).isEqualTo(reference.toByteArray());
  }

  @Test
  void asciiDigitsAndCompactDecimals() {
    BlockBuffer out = new BlockBuffer(1);
    for (long value : new long[] {0, 7, 10, 99, 1234567890123L, Long.MAX_VALUE}) {
      out.reset();
      out.writeAsciiDigits(value);
      assertThat(new String(out.array(), 0, out.size(), StandardCharsets.US_ASCII))
          .isEqualTo(Long.toString(value));
    }
    for (long unscaled :
        new long[] {0, 1, -1, 127, 128, -128, -129, Long.MAX_VALUE, Long.MIN_VALUE}) {
      out.reset();
      BinaryRowAvroEncoder.encodeCompactDecimal(unscaled, out);
      BlockBuffer expected = new BlockBuffer(1);
      expected.writeAvroBytes(java.math.BigInteger.valueOf(unscaled).toByteArray());
      assertThat(Arrays.copyOf(out.array(), out.size()))
          .isEqualTo(Arrays.copyOf(expected.array(), expected.size()));
    }
  }

  private static String hex(String ascii) {
    return HexFormat.of().formatHex(ascii.getBytes(StandardCharsets.US_ASCII));
  }
}
