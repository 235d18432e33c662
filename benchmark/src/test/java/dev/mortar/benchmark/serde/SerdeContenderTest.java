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
   * Mortar, one row per record and in batches, is smaller on the wire than every other contender on
   * both schemas: on Schema3 (50 strings of 100 bytes) only because its rows carry no padding after
   * their strings; Avro re-encodes each field without the binary row's 8-byte slots (rfc/0001).
   */
  @ParameterizedTest
  @EnumSource(
      value = WorkloadSchema.class,
      names = {"SCHEMA1", "SCHEMA3"})
  void mortarIsTheSmallestOnTheWire(WorkloadSchema schema) throws IOException {
    Map<SerdeContender, Double> sizes = SerdeWireSizes.of(schema);
    for (SerdeContender mortar : List.of(SerdeContender.MORTAR, SerdeContender.MORTAR_BATCHED)) {
      for (SerdeContender other :
          List.of(
              SerdeContender.KRYO,
              SerdeContender.AVRO,
              SerdeContender.ROW_DATA,
              SerdeContender.HUDI_1_1)) {
        assertThat(sizes.get(mortar))
            .as("%s vs %s on %s", mortar, other, schema)
            .isLessThan(sizes.get(other));
      }
    }
  }
}
