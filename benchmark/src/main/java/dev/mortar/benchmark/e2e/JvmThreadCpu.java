package dev.mortar.benchmark.e2e;

import dev.mortar.benchmark.ThreadCpuSampler;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The JVM's own threads, which Java's thread bean does not see, as Linux lists them in {@code
 * /proc/self/task}: garbage collection ({@code GC Thread#n}, {@code G1 ...}) and the JIT compilers
 * ({@code C1/C2 CompilerThread}). Every task of the process is listed; only those have a group. A
 * task's CPU time is its {@code utime + stime}, in clock ticks of {@link #TICK_NANOS}. Elsewhere
 * than Linux it lists no threads.
 */
final class JvmThreadCpu implements ThreadCpuSampler.Threads {
  static final String GC = "GC";
  static final String JIT = "JIT";

  /** Linux's {@code USER_HZ}, the unit of a task's CPU times, is 100 on every common platform. */
  private static final long TICK_NANOS = 10_000_000L;

  private static final Path TASKS = Path.of("/proc/self/task");

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

  @Override
  public long[] ids() {
    List<Long> ids = new ArrayList<>();
    if (Files.isDirectory(TASKS)) {
      try (DirectoryStream<Path> tasks = Files.newDirectoryStream(TASKS)) {
        for (Path task : tasks) {
          ids.add(Long.parseLong(task.getFileName().toString()));
        }
      } catch (IOException e) {
        // /proc vanished under us: the tasks listed so far
      }
    }
    return ids.stream().mapToLong(Long::longValue).toArray();
  }

  @Override
  public String group(long id) {
    return groupOf(readOrEmpty(id, "comm").trim());
  }

  @Override
  public long cpuNanos(long id) {
    String stat = readOrEmpty(id, "stat");
    if (stat.isEmpty()) {
      return -1; // the thread ended
    }
    // Fields after the name, which is in parentheses and may hold spaces: state is field 3, utime
    // field 14, stime field 15.
    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) * TICK_NANOS;
  }

  private static String readOrEmpty(long task, String file) {
    try {
      return Files.readString(TASKS.resolve(Long.toString(task)).resolve(file));
    } catch (IOException e) {
      return "";
    }
  }
}
