package dev.mortar.benchmark.serde;

import dev.mortar.benchmark.workload.WorkloadSchema;
import java.io.IOException;
import java.util.EnumMap;
import java.util.Map;

/** Bytes on the wire per record of each {@link SerdeContender}, on the benchmark's records. */
public final class SerdeWireSizes {
  private SerdeWireSizes() {}

  /** Average serialized bytes per record of every contender for {@code schema}. */
  public static Map<SerdeContender, Double> of(WorkloadSchema schema) throws IOException {
    Map<SerdeContender, Double> sizes = new EnumMap<>(SerdeContender.class);
    var inputs =
        ShuffleInput.generate(
            schema, ShuffleRowSerdeBenchmark.RECORDS, ShuffleRowSerdeBenchmark.SEED);
    for (SerdeContender contender : SerdeContender.values()) {
      sizes.put(contender, contender.prepare(schema.rowType(), inputs).bytesPerRecord());
    }
    return sizes;
  }
}
