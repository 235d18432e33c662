package dev.mortar.writer.assign;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mortar.testing.Seeds;
import dev.mortar.writer.input.KeyFields;
import dev.mortar.writer.table.BucketIndex;
import dev.mortar.writer.table.RecordKeys;
import dev.mortar.writer.table.TableSettings;
import java.util.List;
import java.util.Random;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.SmallIntType;
import org.apache.flink.table.types.logical.TinyIntType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The encoder's key and bucket equal the reference path's ({@link KeyFields#render}, {@link
 * RecordKeys#build}, {@link BucketIndex#bucketId(String, int)}, itself checked against Hudi) for
 * random rows of every key shape, as generic and as binary rows.
 */
class RecordKeyEncoderTest {
  private static final long SEED = Seeds.seed("RecordKeyEncoderTest");
  private static final int RUNS = Integer.getInteger("mortar.key.runs", 20_000);
  private static final RowType ROW =
      RowType.of(
          new LogicalType[] {
            new TinyIntType(),
            new SmallIntType(),
            new IntType(),
            new BigIntType(),
            new VarCharType(true, 40),
            new BigIntType()
          },
          new String[] {"t", "s", "i", "l", "v", "ts"});
  private static final String ALPHABET = "az09,:-_ é€\uD83D\uDE00";

  @ParameterizedTest
  @ValueSource(strings = {"t", "s", "i", "l", "v", "l,v", "v,i"})
  void keyAndBucketEqualTheRenderedPath(String fields) {
    List<String> keyFieldNames = List.of(fields.split(","));
    TableSettings table = new TableSettings("t", ROW, keyFieldNames, List.of(), "ts");
    KeyFields keyFields = KeyFields.of(ROW, keyFieldNames, "record key");
    RecordKeys recordKeys = RecordKeys.of(table);
    RecordKeyEncoder encoder = RecordKeyEncoder.of(keyFields, recordKeys);
    RowDataSerializer serializer = new RowDataSerializer(ROW);
    Random random = new Random(SEED);
    for (int run = 0; run < RUNS; run++) {
      GenericRowData generic = randomRow(random);
      String expected = reference(keyFields, recordKeys, generic);
      for (RowData row : List.of(generic, serializer.toBinaryRow(generic))) {
        BinaryStringData key = encoder.encode(row);
        String found = key == null ? null : key.toString();
        assertThat(found).as("key of %s", generic).isEqualTo(expected);
        if (expected != null) {
          int buckets = 1 + random.nextInt(300);
          assertThat(BucketIndex.bucketId(key, buckets))
              .as("bucket of %s", expected)
              .isEqualTo(BucketIndex.bucketId(expected, buckets));
        }
      }
    }
  }

  private static String reference(KeyFields keyFields, RecordKeys recordKeys, RowData row) {
    try {
      return recordKeys.build(keyFields.render(row, null));
    } catch (IllegalArgumentException nullOrEmpty) {
      return null;
    }
  }

  private static GenericRowData randomRow(Random random) {
    long extreme = random.nextBoolean() ? Long.MIN_VALUE : Long.MAX_VALUE;
    long value = random.nextInt(8) == 0 ? extreme + random.nextInt(3) - 1 : random.nextLong();
    return GenericRowData.of(
        nullOr(random, (byte) value),
        nullOr(random, (short) value),
        nullOr(random, (int) (value >> random.nextInt(40))),
        nullOr(random, value >> random.nextInt(64)),
        nullOr(random, BinaryStringData.fromString(randomText(random))),
        value);
  }

  private static <T> T nullOr(Random random, T value) {
    return random.nextInt(10) == 0 ? null : value;
  }

  private static String randomText(Random random) {
    StringBuilder text = new StringBuilder();
    int length = random.nextInt(6);
    boolean ascii = random.nextBoolean();
    for (int i = 0; i < length; i++) {
      int limit = ascii ? 10 : ALPHABET.length();
      char c = ALPHABET.charAt(random.nextInt(limit));
      text.append(
          Character.isHighSurrogate(c) ? "\uD83D\uDE00" : Character.isLowSurrogate(c) ? "x" : c);
    }
    return text.toString();
  }
}
