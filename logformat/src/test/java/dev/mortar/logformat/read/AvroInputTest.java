package dev.mortar.logformat.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mortar.testing.Seeds;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.junit.jupiter.api.Test;

/** Avro's own encoder writes varints; {@link AvroInput} must read them back and refuse bad ones. */
class AvroInputTest {
  @Test
  void varintsOfEveryLengthReadBackAsAvroWroteThem() throws IOException {
    SplittableRandom random = new SplittableRandom(Seeds.seed("varintsOfEveryLength"));
    long[] values = new long[2_000];
    for (int i = 0; i < values.length; i++) {
      int bits = random.nextInt(65);
      values[i] = bits == 64 ? random.nextLong() : random.nextLong() >> (64 - Math.max(1, bits));
    }
    values[0] = Long.MIN_VALUE;
    values[1] = Long.MAX_VALUE;
    values[2] = 0;
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(bytes, null);
    for (long value : values) {
      encoder.writeLong(value);
    }
    encoder.flush();
    byte[] encoded = bytes.toByteArray();
    // at an offset, so that the reader's range is not the array's
    byte[] padded = new byte[encoded.length + 7];
    System.arraycopy(encoded, 0, padded, 3, encoded.length);

    AvroInput in = new AvroInput();
    in.reset(padded, 3, encoded.length);
    for (long value : values) {
      assertThat(in.readLong()).isEqualTo(value);
    }
    assertThat(in.remaining()).isZero();
  }

  @Test
  void aVarintCutShortIsAnEndOfDatum() {
    byte[] bytes = {(byte) 0x80, (byte) 0x80, (byte) 0x80, 0x01};
    AvroInput in = new AvroInput();
    in.reset(bytes, 0, 3);
    assertThatThrownBy(in::readLong)
        .isInstanceOf(EOFException.class)
        .hasMessageContaining("datum ends at byte 3");
  }

  @Test
  void aVarintOfElevenBytesIsRefused() {
    byte[] bytes = new byte[12];
    Arrays.fill(bytes, (byte) 0x80);
    AvroInput in = new AvroInput();
    in.reset(bytes, 0, bytes.length);
    assertThatThrownBy(in::readLong)
        .isInstanceOf(IOException.class)
        .isNotInstanceOf(EOFException.class)
        .hasMessageContaining("longer than 10 bytes");
    in.reset(bytes, 0, 10);
    assertThatThrownBy(in::readLong).hasMessageContaining("longer than 10 bytes");
  }
}
