package dev.mortar.benchmark.serde;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mortar.benchmark.workload.WorkloadSchema;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every contender ships the benchmark records unchanged, also when the sender builds them per
 * record, and Mortar's are the smallest.
 */
class SerdeContenderTest {
  @ParameterizedTest
  @EnumSource(
      value = WorkloadSchema.class,
      names = {"SCHEMA1", "SCHEMA3"})
  void everyContenderRoundTripsTheRecordsUnchanged(WorkloadSchema schema) throws IOException {
    List<ShuffleInput> inputs = ShuffleInput.generate(schema, 50, 42L);
    for (SerdeContender contender : SerdeContender.values()) {
      ShuffleCase serdeCase = contender.prepare(schema.rowType(), inputs);
      assertThat(serdeCase.roundTripped())
          .as("%s %s", contender, schema)
          .hasSize(50)
          .containsExactlyElementsOf((List) serdeCase.records());
      assertThat(serdeCase.builtRoundTripped())
          .as("%s %s, built per record", contender, schema)
          .hasSize(50)
          .containsExactlyElementsOf((List) serdeCase.records());
    }
  }

  /**
   * Smaller than every contender that ships the binary row, on both schemas. Avro re-encodes the
   * row field by field without BinaryRowData's 8-byte slots and 8-byte padding: Mortar is smaller
   * on Schema1, Avro on Schema3 (50 strings), see rfc/0001-serde.md.
   */
  @ParameterizedTest
  @EnumSource(
      value = WorkloadSchema.class,
      names = {"SCHEMA1", "SCHEMA3"})
  void mortarIsTheSmallestOfTheBinaryRowContenders(WorkloadSchema schema) throws IOException {
    Map<SerdeContender, Double> sizes = SerdeWireSizes.of(schema);
    for (SerdeContender other :
        List.of(SerdeContender.KRYO, SerdeContender.ROW_DATA, SerdeContender.HUDI_1_1)) {
      assertThat(sizes.get(SerdeContender.MORTAR)).as("vs %s", other).isLessThan(sizes.get(other));
    }
    if (schema == WorkloadSchema.SCHEMA1) {
      assertThat(sizes.get(SerdeContender.MORTAR)).isLessThan(sizes.get(SerdeContender.AVRO));
    }
  }
}
