package dev.mortar.writer;

import dev.mortar.writer.clean.Cleaning;
import dev.mortar.writer.compaction.AfterCompaction;
import dev.mortar.writer.compaction.OfflineCompactionJob;
import dev.mortar.writer.options.WriterOptions;
import java.io.PrintStream;
import javax.annotation.Nullable;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The offline compactor, for tables whose writing job leaves its plans to others ({@code
 * compaction.async.enabled} = false): executes every pending compaction plan of a table in a
 * bounded Flink job ({@link OfflineCompactionJob}) and cleans after each compaction it commits, as
 * the writing job would (keeping what the last {@code --clean-retain-commits} commits need), as
 * Hudi's offline compactor does. Exit codes: 0 when every pending plan was committed or none was
 * pending, 1 when the table cannot be compacted or the job failed, 2 for bad arguments.
 *
 * <pre>
 *   OfflineCompaction --path &lt;table base path&gt; [--parallelism n] [--memory &lt;compaction.memory&gt;]
 *                     [--clean-retain-commits n]
 * </pre>
 */
public final class OfflineCompaction {
  static final String USAGE =
      "usage: compact --path <table base path> [--parallelism <n>, default 2]"
          + " [--memory <compaction.memory of each task, e.g. 256mb>]"
          + " [--clean-retain-commits <n>, default "
          + WriterOptions.CLEAN_RETAIN_COMMITS.defaultValue()
          + "; 0: no clean]";

  private OfflineCompaction() {}

  /** The command line's arguments. */
  record Arguments(
      String path, int parallelism, @Nullable MemorySize memory, int cleanRetainCommits) {
    static Arguments parse(String[] args) {
      String path = null;
      int parallelism = 2;
      MemorySize memory = null;
      int cleanRetainCommits = WriterOptions.CLEAN_RETAIN_COMMITS.defaultValue();
      for (int i = 0; i < args.length; i++) {
        String flag = args[i];
        if (i + 1 == args.length) {
          throw new IllegalArgumentException("'" + flag + "' needs a value");
        }
        String value = args[++i];
        switch (flag) {
          case "--path" -> path = value;
          case "--parallelism" -> parallelism = count(flag, value, 1);
          case "--memory" -> memory = memory(value);
          case "--clean-retain-commits" -> cleanRetainCommits = count(flag, value, 0);
          default -> throw new IllegalArgumentException("unknown argument '" + flag + "'");
        }
      }
      if (path == null) {
        throw new IllegalArgumentException("'--path' (the table base path) is required");
      }
      return new Arguments(path, parallelism, memory, cleanRetainCommits);
    }

    private static int count(String flag, String value, int least) {
      try {
        int count = Integer.parseInt(value);
        if (count >= least) {
          return count;
        }
      } catch (NumberFormatException e) {
        // reported below
      }
      throw new IllegalArgumentException(
          "'"
              + flag
              + "' must be "
              + (least == 0 ? "an integer >= 0" : "a positive integer")
              + ", got '"
              + value
              + "'");
    }

    private static MemorySize memory(String value) {
      try {
        return MemorySize.parse(value);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            "'--memory' must be a memory size such as 256mb, got '" + value + "'", e);
      }
    }
  }

  public static void main(String[] args) {
    System.exit(
        run(args, StreamExecutionEnvironment.getExecutionEnvironment(), System.out, System.err));
  }

  /**
   * The command without the process exit: parses {@code args}, runs the compaction on {@code env}
   * and returns the exit code.
   */
  public static int run(
      String[] args, StreamExecutionEnvironment env, PrintStream out, PrintStream err) {
    if (args.length == 1 && (args[0].equals("--help") || args[0].equals("-h"))) {
      out.println(USAGE);
      return 0;
    }
    Arguments arguments;
    try {
      arguments = Arguments.parse(args);
    } catch (IllegalArgumentException e) {
      err.println("compact: " + e.getMessage());
      err.println(USAGE);
      return 2;
    }
    try {
      compact(
          env,
          arguments.path(),
          arguments.parallelism(),
          arguments.memory(),
          arguments.cleanRetainCommits(),
          out);
      return 0;
    } catch (IllegalArgumentException e) {
      err.println("compact: " + messages(e));
      return 1;
    } catch (Exception e) {
      err.println("compact: failed on " + arguments.path() + ": " + messages(e));
      e.printStackTrace(err);
      return 1;
    }
  }

  /**
   * Executes every pending compaction plan of the table at {@code basePath} as a bounded job on
   * {@code env}, cleaning after each commit unless {@code cleanRetainCommits} is 0, and prints one
   * line per committed compaction, the cleans and a summary to {@code out}.
   *
   * @param memory the merge memory of each compaction task ({@code compaction.memory}), null for
   *     the option's default
   * @throws IllegalArgumentException naming the path when it holds no table Mortar can compact
   * @throws IllegalStateException naming the plans the job left pending
   */
  public static OfflineCompactionJob.Summary compact(
      StreamExecutionEnvironment env,
      String basePath,
      int parallelism,
      @Nullable MemorySize memory,
      int cleanRetainCommits,
      PrintStream out)
      throws Exception {
    AfterCompaction afterCompaction =
        cleanRetainCommits > 0 ? new Cleaning(cleanRetainCommits) : AfterCompaction.NONE;
    return OfflineCompactionJob.compact(env, basePath, parallelism, memory, afterCompaction, out);
  }

  /** The messages of {@code e} and its causes, outermost first. */
  private static String messages(Throwable e) {
    StringBuilder text = new StringBuilder(String.valueOf(e.getMessage()));
    for (Throwable cause = e.getCause(); cause != null; cause = cause.getCause()) {
      if (cause.getMessage() != null && !text.toString().contains(cause.getMessage())) {
        text.append(": ").append(cause.getMessage());
      }
    }
    return text.toString();
  }
}
