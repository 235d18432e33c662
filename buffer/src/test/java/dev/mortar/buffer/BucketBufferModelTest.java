package dev.mortar.buffer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import dev.mortar.serde.Operation;
import dev.mortar.testing.Seeds;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.function.BiFunction;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Random sequences of append / iterate / clear / flush-largest / release over many buckets of one
 * pool, compared step by step with a plain Java reference (copied rows in lists and maps). Record
 * sizes run from 0 bytes to 3× the page size, keys from 0 bytes; each bucket takes one of the three
 * {@link Deduplication} modes at random; the pool is small, so "full" happens all the time. After
 * every sequence all buffers are released and the pool must have zero pages out and close cleanly.
 *
 * <p>Re-run a failure with {@code -Dmortar.seed=<seed>} (printed in the failure message and in the
 * test output); run longer with {@code -Dmortar.buffer.sequences=<n>} (default 60 per pool kind).
 */
class BucketBufferModelTest {
  private static final int OPERATIONS_PER_SEQUENCE = 400;

  enum PoolKind {
    HEAP_STRICT(PagePool::strictOnHeap),
    OFF_HEAP_STRICT(PagePool::strictOffHeap),
    HEAP_REUSING(PagePool::onHeap),
    OFF_HEAP_REUSING(PagePool::offHeap);

    /** A pool of this kind from the page size and the budget. */
    final BiFunction<Integer, Long, PagePool> newPool;

    PoolKind(BiFunction<Integer, Long, PagePool> newPool) {
      this.newPool = newPool;
    }
  }

  @ParameterizedTest
  @EnumSource(PoolKind.class)
  void matchesReferenceModel(PoolKind kind) {
    long seed = Seeds.seed("BucketBufferModelTest " + kind);
    int sequences = Integer.getInteger("mortar.buffer.sequences", 60);
    SplittableRandom seeds = new SplittableRandom(seed);
    for (int i = 0; i < sequences; i++) {
      long sequenceSeed = seeds.nextLong();
      try {
        new Sequence(kind, sequenceSeed).run();
      } catch (AssertionError | RuntimeException e) {
        throw new AssertionError(
            kind
                + " sequence "
                + i
                + " failed; re-run with -Dmortar.seed="
                + seed
                + " (sequence seed "
                + sequenceSeed
                + ")",
            e);
      }
    }
  }

  /** One expected record: copied key, ordering, operation and row bytes. */
  private record Expected(String key, long ordering, Operation operation, int arity, byte[] row) {
    @Override
    public String toString() {
      return key + "/" + ordering + "/" + operation + "/" + arity + "/" + row.length + "B";
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Expected e
          && key.equals(e.key)
          && ordering == e.ordering
          && operation == e.operation
          && arity == e.arity
          && Arrays.equals(row, e.row);
    }

    @Override
    public int hashCode() {
      return key.hashCode();
    }
  }

  /** What one bucket must hold: arrival order without de-dup, latest per key with it. */
  private static final class Reference {
    final boolean deduplicate;
    final List<Expected> arrivals = new ArrayList<>();
    final Map<String, Expected> latest = new HashMap<>();

    Reference(boolean deduplicate) {
      this.deduplicate = deduplicate;
    }

    void add(Expected record) {
      if (!deduplicate) {
        arrivals.add(record);
        return;
      }
      Expected previous = latest.get(record.key);
      if (previous == null || record.ordering >= previous.ordering) {
        latest.put(record.key, record);
      }
    }

    int size() {
      return deduplicate ? latest.size() : arrivals.size();
    }

    void clear() {
      arrivals.clear();
      latest.clear();
    }
  }

  private static final class Sequence {
    final PoolKind kind;
    final SplittableRandom random;
    final int pageSize;
    final PagePool pool;
    final List<BucketBuffer> buffers = new ArrayList<>();
    final Map<BucketBuffer, Reference> references = new LinkedHashMap<>();
    final int keySpace;
    int created;

    Sequence(PoolKind kind, long seed) {
      this.kind = kind;
      this.random = new SplittableRandom(seed);
      this.pageSize = 64 << random.nextInt(4);
      int pages = 8 + random.nextInt(40);
      this.pool = kind.newPool.apply(pageSize, (long) pages * pageSize);
      this.keySpace = 1 + random.nextInt(60);
      int bucketCount = 1 + random.nextInt(8);
      for (int i = 0; i < bucketCount; i++) {
        newBuffer();
      }
    }

    void newBuffer() {
      Deduplication deduplication =
          Deduplication.values()[random.nextInt(Deduplication.values().length)];
      BucketBuffer buffer =
          pool.newBuffer("bucket-" + created++ + "-" + deduplication, deduplication);
      buffers.add(buffer);
      references.put(buffer, new Reference(deduplication.isOn()));
    }

    void run() {
      for (int step = 0; step < OPERATIONS_PER_SEQUENCE; step++) {
        BucketBuffer buffer = buffers.get(random.nextInt(buffers.size()));
        int choice = random.nextInt(100);
        if (choice < 75) {
          append(buffer);
        } else if (choice < 85) {
          if (random.nextBoolean()) {
            buffer.prepareForReading();
          }
          verify(buffer);
        } else if (choice < 90) {
          buffer.clear();
          references.get(buffer).clear();
        } else if (choice < 97) {
          pool.largestBufferExcept(buffer).ifPresent(this::flush);
        } else {
          verify(buffer);
          buffer.release();
          buffers.remove(buffer);
          references.remove(buffer);
          newBuffer();
        }
        assertPageAccounting();
      }
      for (BucketBuffer buffer : buffers) {
        verify(buffer);
        buffer.release();
      }
      assertThat(pool.pagesInUse()).isZero();
      pool.close();
    }

    void append(BucketBuffer buffer) {
      String keyText = keyText();
      long ordering = random.nextInt(4);
      Operation operation = Operation.values()[random.nextInt(3)];
      TestRows.KeyAndRow input = keyAndRow(BinaryStringData.fromString(keyText), randomRow());
      BinaryStringData key = input.key();
      BinaryRowData row = input.row();
      Expected expected =
          new Expected(keyText, ordering, operation, row.getArity(), TestRows.bytesOf(row));
      long entryBytes = RecordEntryLayout.entryLength(key.getSizeInBytes(), row.getSizeInBytes());
      int pagesBeside =
          switch (buffer.deduplication()) {
            case OFF -> 0;
            case ON_APPEND -> 1; // the index's first page
            case ON_READ -> 2; // the index's first page, reserved, and the entry log's
          };
      if (entryBytes > (long) (pool.maxPages() - pagesBeside) * pageSize) {
        int pagesBefore = buffer.pagesHeld();
        assertThatThrownBy(() -> buffer.append(key, ordering, operation, row))
            .isInstanceOf(RecordTooLargeException.class)
            .hasMessageContaining("record of " + entryBytes + " bytes")
            .hasMessageContaining("page size " + pageSize + " bytes")
            .hasMessageContaining("budget " + pool.budgetBytes() + " bytes")
            .hasMessageContaining("Raise 'buffer.memory'");
        assertThat(buffer.pagesHeld()).isEqualTo(pagesBefore);
        return;
      }
      while (!buffer.append(key, ordering, operation, row)) {
        Optional<BucketBuffer> largest = pool.largestBufferExcept(buffer);
        assertLargest(buffer, largest);
        verify(buffer);
        assertThat(buffer.pagesHeld() + largest.map(BucketBuffer::pagesHeld).orElse(0))
            .as("a full append must leave room only by flushing")
            .isPositive();
        flush(largest.orElse(buffer));
      }
      references.get(buffer).add(expected);
    }

    /**
     * Key and row as they come: apart (the key often still a Java string), or back to back in one
     * array as the shuffle delivers them.
     */
    TestRows.KeyAndRow keyAndRow(BinaryStringData key, BinaryRowData row) {
      if (random.nextInt(3) != 0) {
        return new TestRows.KeyAndRow(key, row);
      }
      int segmentSize = 64 << random.nextInt(3);
      return TestRows.backToBack(key, row, segmentSize, random.nextInt(segmentSize));
    }

    String keyText() {
      int n = random.nextInt(keySpace);
      // key lengths 0 .. ~3 pages, mostly short; the same n always gives the same key
      if (n % 13 == 12) {
        return "L".repeat(n * pageSize / 8);
      }
      return n == 0 ? "" : "k" + n;
    }

    BinaryRowData randomRow() {
      int maxBytes = 3 * pageSize;
      int shape = random.nextInt(10);
      BinaryRowData row;
      if (shape == 0) {
        row = TestRows.emptyRow();
      } else if (shape == 1) {
        row = TestRows.rowOfSize(8, (byte) 0);
      } else {
        int fields = 1 + random.nextInt(4);
        int[] lengths = new int[fields];
        for (int i = 0; i < fields; i++) {
          lengths[i] = random.nextInt(Math.max(1, (maxBytes - 8 - 8 * fields) / fields));
        }
        row = TestRows.rowWithFields(lengths, random.nextLong());
      }
      if (random.nextInt(4) == 0) {
        int segmentSize = 64 << random.nextInt(3);
        int fixedPart = 8 + 8 * row.getArity();
        int offset = fixedPart >= segmentSize ? 0 : random.nextInt(segmentSize - fixedPart);
        row = TestRows.spreadOverSegments(row, segmentSize, offset);
      }
      return row;
    }

    void flush(BucketBuffer buffer) {
      verify(buffer);
      buffer.clear();
      references.get(buffer).clear();
    }

    void verify(BucketBuffer buffer) {
      Reference reference = references.get(buffer);
      assertThat(buffer.recordCount())
          .as("record count of %s before reading", buffer.ownerName())
          .isGreaterThanOrEqualTo(reference.size());
      List<Expected> actual = new ArrayList<>();
      BufferCursor cursor = buffer.cursor();
      assertThat(buffer.recordCount())
          .as("record count of %s", buffer.ownerName())
          .isEqualTo(reference.size());
      while (cursor.next()) {
        BinaryRowData row = cursor.row();
        byte[] bytes = TestRows.bytesOf(row);
        for (int field = 0; field < row.getArity(); field++) {
          // reading through the row's own accessors checks it is pointed at a readable fixed part
          assertThat(row.getBinary(field)).isNotNull();
        }
        actual.add(
            new Expected(
                cursor.key().toString(),
                cursor.orderingValue(),
                cursor.operation(),
                row.getArity(),
                bytes));
      }
      if (reference.deduplicate) {
        Map<String, Expected> byKey = new HashMap<>();
        for (Expected record : actual) {
          assertThat(byKey.put(record.key, record)).as("key %s twice", record.key).isNull();
        }
        assertThat(byKey).isEqualTo(reference.latest);
      } else {
        assertThat(actual).containsExactlyElementsOf(reference.arrivals);
      }
    }

    void assertLargest(BucketBuffer self, Optional<BucketBuffer> largest) {
      int most = 0;
      for (BucketBuffer other : buffers) {
        if (other != self) {
          most = Math.max(most, other.pagesHeld());
        }
      }
      if (most == 0) {
        assertThat(largest).isEmpty();
      } else {
        assertThat(largest).isPresent();
        assertThat(largest.get()).isNotSameAs(self);
        assertThat(largest.get().pagesHeld()).isEqualTo(most);
      }
    }

    void assertPageAccounting() {
      int held = 0;
      for (BucketBuffer buffer : buffers) {
        held += buffer.pagesHeld();
        assertThat(buffer.bytesHeld()).isEqualTo((long) buffer.pagesHeld() * pageSize);
      }
      assertThat(pool.pagesInUse()).isEqualTo(held).isLessThanOrEqualTo(pool.maxPages());
      if (held > pool.maxPages()) {
        fail("over budget");
      }
    }
  }
}
