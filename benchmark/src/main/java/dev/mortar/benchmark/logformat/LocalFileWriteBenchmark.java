package dev.mortar.benchmark.logformat;

import java.io.IOException;
import java.nio.file.Files;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Writing an encoded block to a local log file the way {@code LogFileWriter} does — one {@code
 * write} of the whole block into a stream from Hadoop's (checksumming) local file system, then
 * {@code hsync} and close — by the output buffer size asked of {@code FileSystem.create}. Score:
 * MiB written per second. The writing thread spends this time copying into the page cache (system
 * CPU); write-back to the disk happens later in kernel threads.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
public class LocalFileWriteBenchmark {
  public static final int BLOCK_MIB = 16;

  /** 4096 is Hadoop's default ({@code io.file.buffer.size}); the writer asks for 64 KiB. */
  @Param({"4096", "65536", "262144"})
  public int outputBufferBytes;

  private final byte[] block = new byte[BLOCK_MIB << 20];
  private java.nio.file.Path directory;
  private FileSystem fs;
  private long fileNumber;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    new Random(AvroBlockBenchmark.SEED).nextBytes(block);
    directory = Files.createTempDirectory("mortar-local-write");
    fs = FileSystem.newInstance(directory.toUri(), new Configuration());
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    fs.delete(new Path(directory.toUri()), true);
    fs.close();
  }

  @Benchmark
  @OperationsPerInvocation(BLOCK_MIB)
  public long writeBlock() throws IOException {
    Path file = new Path(directory.toUri().toString(), "block-" + fileNumber++);
    try (FSDataOutputStream out = fs.create(file, false, outputBufferBytes)) {
      out.write(block, 0, block.length);
      out.hsync();
    }
    fs.delete(file, false);
    return fileNumber;
  }
}
