package dev.mortar.serde;

import dev.mortar.testing.RandomRows;
import java.util.Random;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.types.logical.RowType;

/**
 * {@link RandomRows} that also makes random {@link MortarRow}s: keys and partitions of multi-byte
 * text, buckets small, large and negative, every operation, and now and then no payload. It lives
 * here, not in mortar-testing, because that module may not depend on serde.
 */
final class RandomMortarRows extends RandomRows {
  RandomMortarRows(long seed) {
    super(seed);
  }

  /** A random MortarRow of {@code payloadType}: random key, partition, bucket, operation, row. */
  MortarRow mortarRow(RowType payloadType) {
    Random random = random();
    BinaryStringData key = BinaryStringData.fromString(string(40));
    BinaryStringData partition =
        random.nextInt(3) == 0
            ? BinaryStringData.EMPTY_UTF8
            : BinaryStringData.fromString("dt=2026-11-" + random.nextInt(30) + "/" + string(3));
    int bucket =
        switch (random.nextInt(4)) {
          case 0 -> random.nextInt(128);
          case 1 -> random.nextInt(1 << 20);
          case 2 -> random.nextInt();
          default -> -1 - random.nextInt(4);
        };
    Operation operation = Operation.values()[random.nextInt(Operation.values().length)];
    BinaryRowData payload = random.nextInt(20) == 0 ? null : binaryRow(payloadType);
    return new MortarRow(key, partition, bucket, operation, payload);
  }
}
