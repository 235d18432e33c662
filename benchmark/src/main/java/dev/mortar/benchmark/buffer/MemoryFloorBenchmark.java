package dev.mortar.benchmark.buffer;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The least a write task and its flush thread can spend on a row's bytes, whatever their code: the
 * row has to be put into a write buffer far larger than the CPU's caches and read out of it again.
 * Plain {@code System.arraycopy} of rows of {@code rowBytes}, nothing else, in ns per row:
 *
 * <ul>
 *   <li>{@link #appendToBuffer}: a row held in cache (as a received shuffle batch is) copied to the
 *       next free bytes of an area of {@code bufferMiB} in 64 KiB pages (the write buffer's default
 *       page size), a row never split across pages: the write task's append into its pages.
 *   <li>{@link #drainToBlock}: the rows copied back out of that area in order into an 8 MiB array
 *       reused from its start when full (the Avro block's size): the flush's block encoding, less
 *       the encoding.
 *   <li>{@link #drainToBlockByField}: the same in pieces of {@value #FIELD_BYTES} bytes, one copy
 *       per field as the Avro encoder copies a row's strings (DataGen's strings have 100
 *       characters).
 *   <li>{@link #copyInCache}: one row copied between two arrays that stay in cache, the baseline of
 *       the same run ({@code PayloadWriterBenchmark.copyRowBytes} copies many distinct rows, not
 *       all of them in cache).
 * </ul>
 *
 * Each call copies {@value #ROWS_PER_CALL} rows and the cursors move on across calls, wrapping at
 * the area's end, so every {@code appendToBuffer} and {@code drainToBlock} row meets memory the
 * caches no longer hold once the area is larger than the last-level cache.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@OperationsPerInvocation(MemoryFloorBenchmark.ROWS_PER_CALL)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class MemoryFloorBenchmark {
  static final int ROWS_PER_CALL = 256;
  static final int FIELD_BYTES = 100;

  private static final int PAGE_BYTES = 64 * 1024;
  private static final int BLOCK_BYTES = 8 * 1024 * 1024;

  /** About the logical size of a Schema1, Schema2, Schema3 and Schema4 row (rfc/0005). */
  @Param({"160", "2048", "5120", "10240"})
  public int rowBytes;

  /** The write buffer's size; 256 MiB is a write task's default budget. */
  @Param({"256"})
  public int bufferMiB;

  private byte[] row;
  private byte[] rowCopy;
  private byte[][] pages;
  private byte[] block;
  private int rowsPerPage;

  private int appendPage;
  private int appendRow;
  private int drainPage;
  private int drainRow;
  private int blockPosition;

  @Setup(Level.Trial)
  public void setUp() {
    row = new byte[rowBytes];
    new SplittableRandom(42).nextBytes(row);
    rowCopy = new byte[rowBytes];
    rowsPerPage = Math.max(1, PAGE_BYTES / rowBytes);
    int pageBytes = Math.max(PAGE_BYTES, rowBytes);
    pages = new byte[(int) ((bufferMiB * 1024L * 1024L) / pageBytes)][pageBytes];
    for (byte[] page : pages) {
      for (int offset = 0; offset + rowBytes <= page.length; offset += rowBytes) {
        System.arraycopy(row, 0, page, offset, rowBytes);
      }
    }
    block = new byte[BLOCK_BYTES];
  }

  @Benchmark
  public void appendToBuffer(Blackhole blackhole) {
    for (int i = 0; i < ROWS_PER_CALL; i++) {
      System.arraycopy(row, 0, pages[appendPage], appendRow * rowBytes, rowBytes);
      if (++appendRow == rowsPerPage) {
        appendRow = 0;
        appendPage = (appendPage + 1) % pages.length;
      }
    }
    blackhole.consume(pages[appendPage]);
  }

  @Benchmark
  public void drainToBlock(Blackhole blackhole) {
    drain(rowBytes);
    blackhole.consume(block);
  }

  @Benchmark
  public void drainToBlockByField(Blackhole blackhole) {
    drain(FIELD_BYTES);
    blackhole.consume(block);
  }

  /** Copies the next {@value #ROWS_PER_CALL} rows from the pages to the block in pieces. */
  private void drain(int pieceBytes) {
    for (int i = 0; i < ROWS_PER_CALL; i++) {
      if (blockPosition + rowBytes > BLOCK_BYTES) {
        blockPosition = 0;
      }
      byte[] page = pages[drainPage];
      int rowStart = drainRow * rowBytes;
      for (int piece = 0; piece < rowBytes; piece += pieceBytes) {
        int length = Math.min(pieceBytes, rowBytes - piece);
        System.arraycopy(page, rowStart + piece, block, blockPosition, length);
        blockPosition += length;
      }
      if (++drainRow == rowsPerPage) {
        drainRow = 0;
        drainPage = (drainPage + 1) % pages.length;
      }
    }
  }

  @Benchmark
  public void copyInCache(Blackhole blackhole) {
    for (int i = 0; i < ROWS_PER_CALL; i++) {
      System.arraycopy(row, 0, rowCopy, 0, rowBytes);
      blackhole.consume(rowCopy);
    }
  }
}
