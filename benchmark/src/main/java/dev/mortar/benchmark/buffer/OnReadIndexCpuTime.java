package dev.mortar.benchmark.buffer;

import dev.mortar.benchmark.workload.WorkloadSchema;
import dev.mortar.buffer.BucketBuffer;
import dev.mortar.buffer.BufferCursor;
import dev.mortar.buffer.Deduplication;
import dev.mortar.buffer.PagePool;
import dev.mortar.serde.Operation;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.SplittableRandom;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinaryStringData;

/**
 * The {@link Deduplication#ON_READ} index pass at a write task's scale, in thread CPU time per
 * record: a buffer of {@code records} workload rows with keys uniform in [0, 100M) (about one 64 MB
 * flush of Schema1 at 300,000), the pass run by the first {@code cursor()}. At this size the index
 * does not fit in the CPU caches, unlike {@link BufferBenchmark}'s 2,048 keys, so the pass pays a
 * cache miss per new key. Prints 10 rounds; read the last ones.
 *
 * <p>{@code java -cp benchmark/target/mortar-benchmarks.jar
 * dev.mortar.benchmark.buffer.OnReadIndexCpuTime SCHEMA1 300000}
 */
public final class OnReadIndexCpuTime {
  private OnReadIndexCpuTime() {}

  public static void main(String[] args) {
    WorkloadSchema schema = WorkloadSchema.parse(args.length == 0 ? "1" : args[0]);
    int records = args.length < 2 ? 300_000 : Integer.parseInt(args[1]);
    WorkloadSchema.RowGenerator generator = schema.generator(20261123L);
    SplittableRandom random = new SplittableRandom(7);
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    try (PagePool pool = PagePool.onHeap(64 * 1024, 2L << 30)) {
      for (int round = 1; round <= 10; round++) {
        BucketBuffer buffer = pool.newBuffer("on-read", Deduplication.ON_READ);
        for (int i = 0; i < records; i++) {
          long key = random.nextLong(100_000_000L);
          BinaryRowData row = generator.next();
          row.setLong(0, key);
          if (!buffer.append(
              BinaryStringData.fromString(Long.toString(key)), i, Operation.UPDATE, row)) {
            throw new IllegalStateException("pool full at record " + i);
          }
        }
        buffer.prepareForReading();
        long start = threads.getCurrentThreadCpuTime();
        BufferCursor cursor = buffer.cursor();
        long nanos = threads.getCurrentThreadCpuTime() - start;
        int live = 0;
        while (cursor.next()) {
          live++;
        }
        System.out.printf(
            "%s round %d: index pass %.1f ns CPU/record (%d records, %d live)%n",
            schema, round, nanos / (double) records, records, live);
        buffer.release();
      }
    }
  }
}
