package dev.mortar.logformat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.mortar.testing.Seeds;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.util.SplittableRandom;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The two ways a log file is written give the same bytes: random sequences of writes of random
 * sizes (single bytes, empty, up to a few staging buffers), closed with or without sync. Direct I/O
 * is checked on the test's temporary directory; the test is skipped where that file system refuses
 * direct I/O. Re-run a failure with {@code -Dmortar.seed=<seed>}.
 */
class LogFileOutputTest {
  @TempDir java.nio.file.Path dir;

  @ParameterizedTest(name = "direct I/O: {0}")
  @ValueSource(booleans = {true, false})
  void writtenFileHoldsExactlyTheBytesWrittenInOrder(boolean directIo) throws IOException {
    FileSystem fs = FileSystem.getLocal(new Configuration());
    long seed = Seeds.seed("writtenFileHoldsExactlyTheBytesWrittenInOrder[" + directIo + "]");
    SplittableRandom random = new SplittableRandom(seed);
    for (int file = 0; file < 12; file++) {
      Path path = new Path(dir.toUri().toString(), "f" + file + "-" + directIo);
      ByteArrayOutputStream expected = new ByteArrayOutputStream();
      LogFileOutput out = LogFileOutput.create(fs, path, directIo, 4096);
      if (directIo) {
        assumeTrue(out instanceof DirectLogFileOutput, "no direct I/O on " + dir);
      } else {
        assertThat(out).isInstanceOf(HadoopLogFileOutput.class);
      }
      int writes = random.nextInt(40);
      for (int w = 0; w < writes; w++) {
        if (random.nextInt(5) == 0) {
          int b = random.nextInt(256);
          out.write(b);
          expected.write(b);
          continue;
        }
        int max = random.nextInt(4) == 0 ? 3 * DirectLogFileOutput.STAGE_BYTES : 10_000;
        byte[] bytes = new byte[random.nextInt(max + 1)];
        random.nextBytes(bytes);
        int offset = bytes.length == 0 ? 0 : random.nextInt(bytes.length);
        int length =
            bytes.length
                - offset
                - (bytes.length == 0 ? 0 : random.nextInt(bytes.length - offset + 1));
        out.write(bytes, offset, length);
        expected.write(bytes, offset, length);
      }
      if (random.nextBoolean()) {
        out.syncAndClose();
      } else {
        out.close();
      }
      out.close(); // closing again is a no-op
      assertThat(Files.readAllBytes(new File(path.toUri()).toPath()))
          .as("seed %s, file %s", seed, file)
          .isEqualTo(expected.toByteArray());
    }
  }

  @ParameterizedTest(name = "direct I/O: {0}")
  @ValueSource(booleans = {true, false})
  void anExistingFileIsNeverOpenedAgain(boolean directIo) throws IOException {
    FileSystem fs = FileSystem.getLocal(new Configuration());
    Path path = new Path(dir.toUri().toString(), "taken");
    try (LogFileOutput first = LogFileOutput.create(fs, path, directIo, 4096)) {
      first.write(new byte[] {1, 2, 3});
      assertThatThrownBy(() -> LogFileOutput.create(fs, path, directIo, 4096))
          .isInstanceOf(FileAlreadyExistsException.class);
    }
    assertThat(Files.readAllBytes(new File(path.toUri()).toPath())).containsExactly(1, 2, 3);
  }

  /** A local file in a directory that does not exist yet is written directly all the same. */
  @Test
  void missingParentDirectoriesAreCreated() throws IOException {
    FileSystem fs = FileSystem.getLocal(new Configuration());
    Path path = new Path(dir.toUri().toString(), "a/b/c/log");
    try (LogFileOutput out = LogFileOutput.create(fs, path, true, 4096)) {
      assumeTrue(out instanceof DirectLogFileOutput, "no direct I/O on " + dir);
      out.write(new byte[] {7});
      out.syncAndClose();
    }
    assertThat(Files.readAllBytes(new File(path.toUri()).toPath())).containsExactly(7);
  }

  /**
   * A thread's direct files share one staging buffer: a file open beside another takes a second,
   * which is freed when given back; the thread's buffer is freed when the thread releases it. A
   * write after close fails, naming the file, instead of writing into a buffer given back.
   */
  @Test
  void aThreadKeepsOneStagingBufferUntilItReleasesIt() throws IOException {
    StagingBuffers.releaseThisThread();
    long before = StagingBuffers.nativeBytes();
    FileSystem fs = FileSystem.getLocal(new Configuration());
    LogFileOutput first =
        LogFileOutput.create(fs, new Path(dir.toUri().toString(), "one"), true, 0);
    assumeTrue(first instanceof DirectLogFileOutput, "no direct I/O on " + dir);
    long oneBuffer = StagingBuffers.nativeBytes() - before;
    assertThat(oneBuffer).isGreaterThanOrEqualTo(DirectLogFileOutput.STAGE_BYTES);
    LogFileOutput second =
        LogFileOutput.create(fs, new Path(dir.toUri().toString(), "two"), true, 0);
    assertThat(StagingBuffers.nativeBytes() - before).isEqualTo(2 * oneBuffer);

    first.write(1);
    first.syncAndClose();
    second.write(2);
    second.close();
    assertThat(StagingBuffers.nativeBytes() - before).isEqualTo(oneBuffer);
    LogFileOutput third =
        LogFileOutput.create(fs, new Path(dir.toUri().toString(), "three"), true, 0);
    assertThat(StagingBuffers.nativeBytes() - before).as("reused").isEqualTo(oneBuffer);
    third.close();
    assertThatThrownBy(() -> third.write(new byte[] {3}, 0, 1))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("three")
        .hasMessageContaining("after it was closed");

    StagingBuffers.releaseThisThread();
    assertThat(StagingBuffers.nativeBytes()).isEqualTo(before);
  }

  /**
   * A file system that refuses {@code O_DIRECT} after creating the file (as some do) leaves no
   * empty file behind, so the exclusive create of the fallback path succeeds and writes the file.
   */
  @ParameterizedTest(name = "refused after creating the file: {0}")
  @ValueSource(booleans = {true, false})
  void aRefusedDirectOpenLeavesNoFileAndTheFallbackWritesIt(boolean createsFirst)
      throws IOException {
    File file = dir.resolve("refused.log").toFile();
    DirectLogFileOutput direct =
        DirectLogFileOutput.createIfSupported(
            file,
            path -> {
              if (createsFirst) {
                Files.createFile(path);
              }
              throw new IOException("Invalid argument");
            });
    assertThat(direct).isNull();
    assertThat(file).doesNotExist();

    FileSystem fs = FileSystem.getLocal(new Configuration());
    byte[] bytes = new byte[5000];
    new SplittableRandom(3).nextBytes(bytes);
    try (LogFileOutput out =
        LogFileOutput.create(fs, new Path(file.toURI().toString()), false, 4096)) {
      out.write(bytes);
      out.syncAndClose();
    }
    assertThat(Files.readAllBytes(file.toPath())).isEqualTo(bytes);
  }

  @Test
  void aRefusedDirectOpenKeepsAFileItDidNotCreate() throws IOException {
    File file = dir.resolve("other-writer.log").toFile();
    DirectLogFileOutput direct =
        DirectLogFileOutput.createIfSupported(
            file,
            path -> {
              Files.write(path, new byte[] {1, 2, 3});
              throw new IOException("Invalid argument");
            });
    assertThat(direct).isNull();
    assertThat(Files.readAllBytes(file.toPath())).containsExactly(1, 2, 3);
  }
}
