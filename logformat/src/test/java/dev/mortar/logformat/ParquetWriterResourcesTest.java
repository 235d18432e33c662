package dev.mortar.logformat;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mortar.testing.RandomRows;
import dev.mortar.testing.Seeds;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.junit.jupiter.api.Test;

/**
 * Parquet blocks written with one thread's buffers and compressors, kept across blocks of other
 * schemas, codecs and dictionary settings, are byte for byte the blocks a fresh set writes. The
 * kept buffers are overwritten as they go back into the pool, so a parquet-mr that used one after
 * its writer closed would write other bytes here. That Hudi reads the blocks is {@code
 * LogFileReaderRoundTripTest}'s and the writer module's round trips'.
 */
class ParquetWriterResourcesTest {

  @Test
  void blocksWrittenWithKeptResourcesEqualThoseOfFreshOnes() throws Exception {
    long seed = Seeds.seed("blocksWrittenWithKeptResourcesEqualThoseOfFreshOnes");
    RandomRows random = new RandomRows(seed);
    SplittableRandom choices = new SplittableRandom(seed);
    OverwritingAllocator allocator = new OverwritingAllocator();
    BlockScratch kept = allocator.scratch();
    int blocks = Seeds.size("mortar.iterations", 40);
    for (int block = 0; block < blocks; block++) {
      RowType rowType =
          block % 8 == 0 ? random.tableRowTypeOfEveryKind() : random.tableRowType(1 + block % 9);
      List<BinaryRowData> rows = new ArrayList<>();
      int count = 1 + choices.nextInt(block % 5 == 4 ? 6000 : 300);
      for (int r = 0; r < count; r++) {
        rows.add(RandomRows.toBinary(rowType, random.tableRow(rowType, r)));
      }
      ParquetCodec codec = ParquetCodec.values()[choices.nextInt(ParquetCodec.values().length)];
      boolean dictionary = choices.nextBoolean();
      boolean perColumn = choices.nextBoolean();

      byte[] withFresh = block(rowType, rows, codec, dictionary, perColumn, freshScratch());
      assertThat(block(rowType, rows, codec, dictionary, perColumn, kept))
          .as(
              "block %d: %d rows of %s, %s, dictionary %s, per column %s, seed %d",
              block, count, rowType, codec, dictionary, perColumn, seed)
          .isEqualTo(withFresh);
    }
    assertThat(allocator.recycled).as("buffers taken back and lent again").isPositive();
  }

  /**
   * Blocks whose string dictionaries overflow their page and fall back to plain encoding, between
   * small ones, are the blocks of fresh resources: the dictionary's buffers are released and lent
   * again like the others.
   */
  @Test
  void blocksWhoseDictionariesFallBackEqualThoseOfFreshOnes() throws Exception {
    long seed = Seeds.seed("blocksWhoseDictionariesFallBackEqualThoseOfFreshOnes");
    SplittableRandom random = new SplittableRandom(seed);
    RowType rowType =
        RowType.of(
            new LogicalType[] {new BigIntType(false), new VarCharType(VarCharType.MAX_LENGTH)},
            new String[] {"id", "text"});
    OverwritingAllocator allocator = new OverwritingAllocator();
    BlockScratch kept = allocator.scratch();
    for (int count : new int[] {10, 30_000, 50, 30_000, 2}) {
      List<BinaryRowData> rows = new ArrayList<>();
      for (int r = 0; r < count; r++) {
        String text = Long.toHexString(random.nextLong()).repeat(1 + random.nextInt(6));
        rows.add(
            RandomRows.toBinary(rowType, GenericRowData.of((long) r, StringData.fromString(text))));
      }
      for (ParquetCodec codec : List.of(ParquetCodec.SNAPPY, ParquetCodec.NONE)) {
        byte[] withFresh = block(rowType, rows, codec, true, false, freshScratch());
        assertThat(block(rowType, rows, codec, true, false, kept))
            .as("%d rows, %s, seed %d", count, codec, seed)
            .isEqualTo(withFresh);
      }
    }
    assertThat(allocator.recycled).as("buffers taken back and lent again").isPositive();
  }

  /**
   * Writers on two threads at once, each with its own kept resources, write the blocks fresh
   * resources write. parquet-mr builds every writer's value writers through one static factory that
   * holds the properties of the writer built last, so a writer may allocate from the other thread's
   * allocator; the blocks are equal only if that allocator lends no array twice.
   */
  @Test
  void blocksWrittenOnTwoThreadsAtOnceEqualThoseOfFreshOnes() throws Exception {
    long seed = Seeds.seed("blocksWrittenOnTwoThreadsAtOnceEqualThoseOfFreshOnes");
    RandomRows random = new RandomRows(seed);
    RowType rowType = random.tableRowTypeOfEveryKind();
    List<BinaryRowData> rows = new ArrayList<>();
    for (int r = 0; r < 400; r++) {
      rows.add(RandomRows.toBinary(rowType, random.tableRow(rowType, r)));
    }
    byte[] expected = block(rowType, rows, ParquetCodec.SNAPPY, true, false, freshScratch());
    ExecutorService threads = Executors.newFixedThreadPool(2);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < 2; t++) {
        done.add(
            threads.submit(
                () -> {
                  BlockScratch kept = new OverwritingAllocator().scratch();
                  for (int block = 0; block < 60; block++) {
                    assertThat(block(rowType, rows, ParquetCodec.SNAPPY, true, false, kept))
                        .as("block %d of a thread, seed %d", block, seed)
                        .isEqualTo(expected);
                  }
                  return null;
                }));
      }
      for (Future<?> thread : done) {
        thread.get();
      }
    } finally {
      threads.shutdownNow();
    }
  }

  /** An allocator that overwrites every array it pools again, and counts them. */
  private static final class OverwritingAllocator extends RecyclingHeapAllocator {
    int recycled;

    @Override
    void recycle(byte[] array) {
      Arrays.fill(array, (byte) 0x5A);
      recycled++;
      super.recycle(array);
    }

    BlockScratch scratch() {
      return new BlockScratch(new BlockBuffer(1 << 10), new ParquetWriterResources(this));
    }
  }

  private static BlockScratch freshScratch() {
    return new BlockScratch(new BlockBuffer(1 << 10), new ParquetWriterResources());
  }

  private static byte[] block(
      RowType rowType,
      List<BinaryRowData> rows,
      ParquetCodec codec,
      boolean dictionary,
      boolean perColumn,
      BlockScratch scratch)
      throws Exception {
    ParquetBlockBuilder builder =
        new ParquetBlockBuilder(
            rowType,
            AvroSchemas.of(rowType, "record", true),
            new MetaFieldValues("20260101000000000", "0-1-0", "p", "f-0"),
            codec,
            dictionary,
            perColumn,
            scratch);
    for (int i = 0; i < rows.size(); i++) {
      builder.add(BinaryStringData.fromString("k" + i), i, rows.get(i));
    }
    BlockBuffer content = builder.finishBlock();
    return Arrays.copyOf(content.array(), content.size());
  }
}
