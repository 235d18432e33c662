package dev.mortar.benchmark.e2e;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * CPU time of the JVM's own threads, which Java's thread bean does not see, read from Linux's
 * {@code /proc/self/task}: garbage collection ({@code GC Thread#n}, {@code G1 ...}) and the JIT
 * compilers ({@code C1/C2 CompilerThread}). A thread's name is read once; a poller reads the CPU
 * time ({@code utime + stime}, in clock ticks of {@link #TICK_NANOS}) of the matching threads every
 * period and keeps the last reading, so a compiler thread the JVM retires loses at most its last
 * period. Elsewhere than Linux it reads nothing.
 */
final class JvmThreadCpu implements AutoCloseable {
  static final String GC = "GC";
  static final String JIT = "JIT";

  /** Linux's {@code USER_HZ}, the unit of a task's CPU times, is 100 on every common platform. */
  private static final long TICK_NANOS = 10_000_000L;

  private static final Path TASKS = Path.of("/proc/self/task");

  private final Map<String, String> groupOfTask = new HashMap<>();
  private final Map<String, Long> startTicks = new HashMap<>();
  private final Map<String, Long> lastTicks = new HashMap<>();
  private final Thread poller;
  private volatile boolean running = true;

  private JvmThreadCpu(long periodMillis) {
    poller =
        new Thread(
            () -> {
              while (running) {
                try {
                  Thread.sleep(periodMillis);
                } catch (InterruptedException e) {
                  return;
                }
                read(false);
              }
            },
            "jvm-thread-cpu");
    poller.setDaemon(true);
  }

  static JvmThreadCpu start(long periodMillis) {
    JvmThreadCpu cpu = new JvmThreadCpu(periodMillis);
    cpu.read(true);
    cpu.poller.start();
    return cpu;
  }

  /** The group of a JVM thread by its Linux name, or null for every other thread. */
  static String groupOf(String name) {
    if (name.startsWith("GC Thread") || name.startsWith("G1 ")) {
      return GC;
    }
    if (name.startsWith("C1 CompilerThre") || name.startsWith("C2 CompilerThre")) {
      return JIT;
    }
    return null;
  }

  /** Stops polling; the CPU nanoseconds each group used since the start. */
  Map<String, Long> stopAndSumByGroup() throws InterruptedException {
    close();
    read(false);
    Map<String, Long> sums = new TreeMap<>();
    lastTicks.forEach(
        (task, ticks) ->
            sums.merge(
                groupOfTask.get(task),
                (ticks - startTicks.getOrDefault(task, 0L)) * TICK_NANOS,
                Long::sum));
    return sums;
  }

  private synchronized void read(boolean atStart) {
    if (!Files.isDirectory(TASKS)) {
      return;
    }
    try (DirectoryStream<Path> tasks = Files.newDirectoryStream(TASKS)) {
      for (Path task : tasks) {
        String id = task.getFileName().toString();
        if (!groupOfTask.containsKey(id)) {
          groupOfTask.put(id, groupOf(readOrEmpty(task.resolve("comm")).trim()));
        }
        if (groupOfTask.get(id) == null) {
          continue;
        }
        String stat = readOrEmpty(task.resolve("stat"));
        if (stat.isEmpty()) {
          continue; // the thread ended
        }
        // Fields after the name, which is in parentheses and may hold spaces: state is field 3,
        // utime field 14, stime field 15.
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
        lastTicks.put(id, ticks);
        if (atStart) {
          startTicks.put(id, ticks);
        }
      }
    } catch (IOException e) {
      // /proc vanished under us: keep the readings so far
    }
  }

  private static String readOrEmpty(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      return "";
    }
  }

  @Override
  public void close() throws InterruptedException {
    running = false;
    poller.interrupt();
    poller.join();
  }
}
