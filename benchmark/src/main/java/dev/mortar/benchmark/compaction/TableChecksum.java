package dev.mortar.benchmark.compaction;

import dev.mortar.testing.HudiTableOracle;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.apache.avro.Schema;
import org.apache.avro.generic.IndexedRecord;
import org.apache.hadoop.conf.Configuration;

/**
 * What Hudi's reader ({@link HudiTableOracle}) reads from a table: the number of distinct keys and
 * an order-independent checksum of the rows' data columns (Hudi's meta columns left out: file names
 * differ between two compactors). The checksum is the sum over rows of a 64-bit FNV-1a hash of each
 * column's name and value text.
 */
record TableChecksum(long keys, long checksum) {
  private static final long FNV_OFFSET = 0xcbf29ce484222325L;
  private static final long FNV_PRIME = 0x100000001b3L;

  static TableChecksum read(Path table) {
    long[] sum = new long[1];
    long keys =
        HudiTableOracle.forEachRow(
            table.toUri().toString(),
            new Configuration(),
            (key, row, slice) -> sum[0] += rowHash(row));
    return new TableChecksum(keys, sum[0]);
  }

  private static long rowHash(IndexedRecord row) {
    long hash = FNV_OFFSET;
    for (Schema.Field field : row.getSchema().getFields()) {
      if (!field.name().startsWith("_hoodie_")) {
        hash = fnv(hash, field.name());
        hash = fnv(hash, String.valueOf(row.get(field.pos())));
      }
    }
    return hash;
  }

  private static long fnv(long hash, String text) {
    for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
      hash = (hash ^ (b & 0xff)) * FNV_PRIME;
    }
    return (hash ^ 0xff) * FNV_PRIME;
  }
}
