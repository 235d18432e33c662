package dev.mortar.writer.it;

import dev.mortar.writer.table.WriterLease;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Waits, after each test, until the writer leases of the tables in the test's {@code @TempDir}
 * fields are released, before JUnit deletes those folders. A finished job's instant coordinator
 * releases its lease as the JobManager closes, a moment after the job's result is out; a release
 * racing JUnit's delete would create the lease folder anew and fail the test's clean-up. A lease
 * whose holder stopped heartbeating (a killed process) is not waited for; the wait is bounded.
 * Registered for every test of the module through {@code junit-platform.properties}.
 */
public final class LeasesReleasedBeforeCleanup implements AfterEachCallback, AfterAllCallback {
  private static final Logger LOG = LoggerFactory.getLogger(LeasesReleasedBeforeCleanup.class);
  private static final Duration WAIT = Duration.ofSeconds(15);
  private static final Duration SILENT_HOLDER = Duration.ofSeconds(10);
  private static final long POLL_MILLIS = 50;
  private static final int TABLE_DEPTH = 6;
  private static final Path LEASE_FOLDER = Path.of(".hoodie", ".aux", WriterLease.FOLDER);

  @Override
  public void afterEach(ExtensionContext context) throws Exception {
    Object test = context.getRequiredTestInstance();
    awaitReleased(tempDirs(test.getClass(), test));
  }

  @Override
  public void afterAll(ExtensionContext context) throws Exception {
    awaitReleased(tempDirs(context.getRequiredTestClass(), null));
  }

  /** The test's {@code @TempDir} folders: the instance's fields, or the static ones for null. */
  private static List<Path> tempDirs(Class<?> type, Object instance) throws IllegalAccessException {
    List<Path> dirs = new ArrayList<>();
    for (Class<?> c = type; c != null; c = c.getSuperclass()) {
      for (Field field : c.getDeclaredFields()) {
        boolean wanted = Modifier.isStatic(field.getModifiers()) == (instance == null);
        if (wanted && field.isAnnotationPresent(TempDir.class) && field.getType() == Path.class) {
          field.setAccessible(true);
          Object dir = field.get(instance);
          if (dir != null) {
            dirs.add((Path) dir);
          }
        }
      }
    }
    return dirs;
  }

  private static void awaitReleased(List<Path> dirs) throws IOException, InterruptedException {
    if (dirs.isEmpty()) {
      return;
    }
    FileSystem fs = FileSystem.getLocal(new Configuration());
    long deadline = System.nanoTime() + WAIT.toNanos();
    for (Path table : tables(dirs)) {
      while (!settled(fs, table)) {
        if (System.nanoTime() > deadline) {
          LOG.warn("The writer lease of {} is still held after {}", table, WAIT);
          return;
        }
        Thread.sleep(POLL_MILLIS);
      }
    }
  }

  /**
   * Whether the lease of {@code table} is done changing: released and its older generations deleted
   * (a release creates the released generation first, then deletes the older ones), or held by a
   * writer that stopped heartbeating.
   */
  private static boolean settled(FileSystem fs, Path table) throws IOException {
    WriterLease lease =
        WriterLease.of(fs, new org.apache.hadoop.fs.Path(table.toUri()), SILENT_HOLDER);
    Optional<WriterLease.State> state = lease.read();
    if (state.isEmpty()) {
      return true;
    }
    if (!state.get().released()) {
      return lease.ageMillis(state.get()) > SILENT_HOLDER.toMillis();
    }
    try (Stream<Path> files = Files.list(table.resolve(LEASE_FOLDER))) {
      return files.count() == 1;
    }
  }

  /** The tables under {@code dirs}: folders holding a lease folder. */
  private static List<Path> tables(List<Path> dirs) throws IOException {
    List<Path> tables = new ArrayList<>();
    for (Path dir : dirs) {
      if (!Files.isDirectory(dir)) {
        continue;
      }
      try (Stream<Path> found = Files.walk(dir, TABLE_DEPTH)) {
        found
            .filter(path -> path.endsWith(LEASE_FOLDER))
            .map(path -> path.getParent().getParent().getParent())
            .forEach(tables::add);
      } catch (UncheckedIOException vanished) {
        LOG.debug("A folder under {} vanished while listing it", dir, vanished);
      }
    }
    return tables;
  }
}
