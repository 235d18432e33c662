package dev.mortar.writer.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mortar.testing.Seeds;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.hudi.avro.AvroSchemaUtils;
import org.apache.hudi.keygen.constant.KeyGeneratorOptions;
import org.junit.jupiter.api.Test;

class RecordKeysAndPartitionPathsTest {
  private static final long SEED = Seeds.seed("RecordKeysAndPartitionPathsTest");
  private static final RowType ROW =
      RowType.of(
          new LogicalType[] {
            new VarCharType(true, 9),
            new VarCharType(true, 9),
            new VarCharType(true, 9),
            new BigIntType()
          },
          new String[] {"a", "b", "c", "ts"});

  @Test
  void keyGeneratorFollowsHudisFlinkFactory() {
    assertThat(settings(List.of("a"), List.of("b")).keyGeneratorType())
        .isEqualTo(KeyGeneratorType.SIMPLE_AVRO);
    assertThat(settings(List.of("a", "b"), List.of("c")).keyGeneratorType())
        .isEqualTo(KeyGeneratorType.COMPLEX_AVRO);
    assertThat(settings(List.of("a"), List.of("b", "c")).keyGeneratorType())
        .isEqualTo(KeyGeneratorType.COMPLEX_AVRO);
    assertThat(settings(List.of("a"), List.of()).keyGeneratorType())
        .isEqualTo(KeyGeneratorType.NON_PARTITION_AVRO);
  }

  @Test
  void simpleKeyIsTheValueAndMustNotBeNullOrEmpty() {
    RecordKeys keys = RecordKeys.of(settings(List.of("a"), List.of("b")));
    assertThat(keys.build("k1")).isEqualTo("k1");
    assertThatThrownBy(() -> keys.build((String) null))
        .hasMessageContaining("record key fields [a] are all null or empty");
    assertThatThrownBy(() -> keys.build("")).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void complexKeyIsFieldValuePairs() {
    RecordKeys keys = RecordKeys.of(settings(List.of("a", "b"), List.of("c")));
    assertThat(keys.build("1", "x")).isEqualTo("a:1,b:x");
    assertThat(keys.build(null, "x")).isEqualTo("a:__null__,b:x");
    assertThat(keys.build("", "x")).isEqualTo("a:__empty__,b:x");
    assertThatThrownBy(() -> keys.build(null, "")).hasMessageContaining("[a, b]");
    assertThat(RecordKeys.of(settings(List.of("a"), List.of("b", "c"))).build("1"))
        .isEqualTo("a:1");
  }

  @Test
  void hashKeysRecoverTheValuesOfAComplexKey() {
    Random random = new Random(SEED);
    RecordKeys keys = RecordKeys.of(settings(List.of("a", "b", "c"), List.of()));
    String alphabet = "xyz019:- ";
    for (int i = 0; i < 2_000; i++) {
      String[] values = new String[3];
      for (int v = 0; v < 3; v++) {
        StringBuilder value = new StringBuilder("v");
        int length = random.nextInt(6);
        for (int c = 0; c < length; c++) {
          value.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        values[v] = random.nextInt(10) == 0 ? null : value.toString();
      }
      if (values[0] == null && values[1] == null && values[2] == null) {
        continue;
      }
      String key = keys.build(values);
      assertThat(BucketIndex.hashKeys(key)).as(key).containsExactly(values);
      assertThat(BucketIndex.bucketId(key, 64))
          .isEqualTo((Arrays.asList(values).hashCode() & Integer.MAX_VALUE) % 64);
    }
  }

  @Test
  void partitionPathJoinsValuesAndDefaultsNulls() {
    PartitionPaths paths = PartitionPaths.of(settings(List.of("a"), List.of("b", "c")));
    assertThat(paths.build("2024", "x")).isEqualTo("2024/x");
    assertThat(paths.build(null, ""))
        .isEqualTo("__HIVE_DEFAULT_PARTITION__/__HIVE_DEFAULT_PARTITION__");
    assertThat(PartitionPaths.of(settings(List.of("a"), List.of())).build()).isEmpty();
    assertThat(PartitionPaths.depth("")).isZero();
    assertThat(PartitionPaths.depth("2024")).isEqualTo(1);
    assertThat(PartitionPaths.depth("2024/x")).isEqualTo(2);
  }

  @Test
  void avroRecordNameIsHudisQualifiedName() {
    Random random = new Random(SEED);
    List<String> names =
        new java.util.ArrayList<>(List.of("t1", "my-table.x", "1abc", "a b", "ünï", "_x9"));
    String alphabet = "aZ_09-. ü";
    for (int i = 0; i < 500; i++) {
      StringBuilder name = new StringBuilder();
      for (int c = 0, length = 1 + random.nextInt(8); c < length; c++) {
        name.append(alphabet.charAt(random.nextInt(alphabet.length())));
      }
      names.add(name.toString());
    }
    for (String name : names) {
      assertThat(new TableSettings(name, ROW, List.of("a"), List.of(), null).avroRecordName())
          .as(name)
          .isEqualTo(AvroSchemaUtils.getAvroRecordQualifiedName(name));
    }
  }

  /**
   * Why a partition value is used as is: Hudi's key generators neither URL-encode nor hive-style by
   * default.
   */
  @Test
  void hudisKeyGeneratorDefaultsAreNoEncodingAndNoHiveStyle() {
    assertThat(KeyGeneratorOptions.URL_ENCODE_PARTITIONING.defaultValue()).isEqualTo("false");
    assertThat(KeyGeneratorOptions.HIVE_STYLE_PARTITIONING_ENABLE.defaultValue())
        .isEqualTo("false");
    PartitionPaths paths = PartitionPaths.of(settings(List.of("a"), List.of("b")));
    assertThat(paths.build("a b%c")).isEqualTo("a b%c");
  }

  @Test
  void settingsRejectUnknownFields() {
    assertThatThrownBy(() -> new TableSettings("t", ROW, List.of("id"), List.of(), null))
        .hasMessage("field 'id' is not a column of the row type; columns are [a, b, c, ts]");
    assertThatThrownBy(() -> new TableSettings("t", ROW, List.of(), List.of(), null))
        .hasMessageContaining("at least one record key field");
  }

  private static TableSettings settings(List<String> keys, List<String> partitions) {
    return new TableSettings("t", ROW, keys, partitions, "ts");
  }
}
