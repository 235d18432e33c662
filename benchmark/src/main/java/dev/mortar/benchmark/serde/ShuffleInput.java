package dev.mortar.benchmark.serde;

import dev.mortar.benchmark.workload.WorkloadSchema;
import dev.mortar.serde.Operation;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.runtime.typeutils.RowDataSerializer;

/**
 * One record as it leaves the upsert sink's key/bucket step, before any contender shapes it: the
 * key as text ({@code item_id}), the partition path (empty: the workload table is not partitioned),
 * the bucket of {@link #BUCKETS}, the operation, and the row both as objects and as {@link
 * BinaryRowData}.
 */
public record ShuffleInput(
    String recordKey,
    String partitionPath,
    int bucket,
    Operation operation,
    GenericRowData row,
    BinaryRowData binaryRow) {

  /** Buckets of the workload table (16, as in the Hudi/Paimon comparison). */
  public static final int BUCKETS = 16;

  /** {@code count} records of {@code schema}, reproducible from {@code seed}. */
  public static List<ShuffleInput> generate(WorkloadSchema schema, int count, long seed) {
    WorkloadSchema.RowGenerator generator = schema.generator(seed);
    RowDataSerializer rowSerializer = new RowDataSerializer(schema.rowType());
    SplittableRandom random = new SplittableRandom(seed);
    List<ShuffleInput> inputs = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      GenericRowData row = generator.nextGeneric();
      long key = row.getLong(0);
      inputs.add(
          new ShuffleInput(
              Long.toString(key),
              "",
              (int) Math.floorMod(key, (long) BUCKETS),
              random.nextInt(4) == 0 ? Operation.INSERT : Operation.UPDATE,
              row,
              rowSerializer.toBinaryRow(row).copy()));
    }
    return inputs;
  }
}
