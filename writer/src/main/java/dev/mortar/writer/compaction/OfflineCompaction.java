package dev.mortar.writer.compaction;

import dev.mortar.writer.options.WriterOptions;
import dev.mortar.writer.settings.SinkSettings;
import dev.mortar.writer.table.CompletedCommits;
import dev.mortar.writer.table.ExistingTable;
import dev.mortar.writer.table.HudiTable;
import dev.mortar.writer.table.TableFileSystems;
import dev.mortar.writer.table.TableSettings;
import dev.mortar.writer.table.Timeline;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import javax.annotation.Nullable;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Offline compaction, for tables whose writing job leaves its plans to others ({@code
 * compaction.async.enabled} = false): a bounded Flink job that executes every pending plan of a
 * table, as Hudi's offline compactor does. The client starts each plan ({@code
 * C.compaction.inflight}) and reads its operations with a {@link CompactionDispatcher}; the job
 * feeds them to the same compaction tasks and compaction committer as the writing job ({@link
 * CompactionStages}), in BATCH execution mode. Everything about the table (row type, keys, ordering
 * field, meta fields) is read from the table itself ({@link ExistingTable#read}).
 *
 * <p>Run it only while no job executes the table's plans: two executions of one plan write the same
 * base files. A failed run leaves its plans pending; the next run executes them again from scratch.
 *
 * <pre>
 *   OfflineCompaction --path &lt;table base path&gt; [--parallelism n] [--memory &lt;compaction.memory&gt;]
 * </pre>
 */
public final class OfflineCompaction {
  static final String USAGE =
      "usage: compact --path <table base path> [--parallelism <n>, default 2]"
          + " [--memory <compaction.memory of each task, e.g. 256mb>]";

  private OfflineCompaction() {}

  /** What a run did: compactions committed, their file groups and base file records. */
  public record Summary(int compactions, int fileGroups, long records, double seconds) {}

  /** The command line's arguments. */
  record Arguments(String path, int parallelism, @Nullable MemorySize memory) {
    static Arguments parse(String[] args) {
      String path = null;
      int parallelism = 2;
      MemorySize memory = null;
      for (int i = 0; i < args.length; i++) {
        String flag = args[i];
        if (i + 1 == args.length) {
          throw new IllegalArgumentException("'" + flag + "' needs a value");
        }
        String value = args[++i];
        switch (flag) {
          case "--path" -> path = value;
          case "--parallelism" -> parallelism = parallelism(value);
          case "--memory" -> memory = memory(value);
          default -> throw new IllegalArgumentException("unknown argument '" + flag + "'");
        }
      }
      if (path == null) {
        throw new IllegalArgumentException("'--path' (the table base path) is required");
      }
      return new Arguments(path, parallelism, memory);
    }

    private static int parallelism(String value) {
      try {
        int parallelism = Integer.parseInt(value);
        if (parallelism > 0) {
          return parallelism;
        }
      } catch (NumberFormatException e) {
        // reported below
      }
      throw new IllegalArgumentException(
          "'--parallelism' must be a positive integer, got '" + value + "'");
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
   * and returns the exit code: 0 when every pending plan was committed or none was pending, 1 when
   * the table cannot be compacted or the job failed, 2 for bad arguments.
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
      compact(env, arguments.path(), arguments.parallelism(), arguments.memory(), out);
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
   * {@code env}, printing one line per committed compaction and a summary to {@code out}.
   *
   * @param memory the merge memory of each compaction task ({@code compaction.memory}), null for
   *     the option's default
   * @throws IllegalArgumentException naming the path when it holds no table Mortar can compact
   * @throws IllegalStateException naming the plans the job left pending
   */
  public static Summary compact(
      StreamExecutionEnvironment env,
      String basePath,
      int parallelism,
      @Nullable MemorySize memory,
      PrintStream out)
      throws Exception {
    long start = System.nanoTime();
    TableSettings table = ExistingTable.read(basePath);
    SinkSettings settings = settings(basePath, table, memory);
    List<CompactionTask> tasks = new ArrayList<>();
    Path timelineDir;
    try (FileSystem fs = TableFileSystems.open(basePath)) {
      Timeline timeline =
          HudiTable.createOrValidate(fs, TableFileSystems.path(basePath), table).timeline();
      timelineDir = timeline.timelineDir();
      new CompactionDispatcher(fs, timeline, tasks::add).dispatchPending();
    }
    if (tasks.isEmpty()) {
      out.println("No pending compaction in " + basePath + ": nothing to do.");
      return new Summary(0, 0, 0, seconds(start));
    }
    Map<String, Integer> fileGroupsByInstant = new TreeMap<>();
    tasks.forEach(task -> fileGroupsByInstant.merge(task.instant(), 1, Integer::sum));
    out.printf(
        "Compacting %s: %d pending plan(s), %d file group(s), %d task(s)%n",
        basePath, fileGroupsByInstant.size(), tasks.size(), parallelism);

    env.setRuntimeMode(RuntimeExecutionMode.BATCH);
    env.setParallelism(parallelism);
    CompactionStages.after(
        env.fromData(tasks, CompactionStages.TASK_TYPE).name("pending compaction plans"),
        settings,
        parallelism,
        uid -> Optional.empty(),
        AfterCompaction.NONE,
        false);
    env.execute("mortar offline compaction: " + table.tableName());

    return report(basePath, timelineDir, fileGroupsByInstant, start, out);
  }

  /** Prints each compaction's commit and the summary; fails naming any plan left pending. */
  private static Summary report(
      String basePath,
      Path timelineDir,
      Map<String, Integer> fileGroupsByInstant,
      long start,
      PrintStream out)
      throws IOException {
    List<String> pending = new ArrayList<>();
    int fileGroups = 0;
    long records = 0;
    try (FileSystem fs = TableFileSystems.open(basePath)) {
      for (Map.Entry<String, Integer> plan : fileGroupsByInstant.entrySet()) {
        OptionalLong written = CompletedCommits.compactionRecords(fs, timelineDir, plan.getKey());
        if (written.isEmpty()) {
          pending.add(plan.getKey());
          continue;
        }
        fileGroups += plan.getValue();
        records += written.getAsLong();
        out.printf(
            "Committed compaction %s: %d file group(s), %d record(s)%n",
            plan.getKey(), plan.getValue(), written.getAsLong());
      }
    }
    if (!pending.isEmpty()) {
      throw new IllegalStateException(
          "the compaction job finished but left plan(s) "
              + pending
              + " of "
              + basePath
              + " pending");
    }
    Summary summary = new Summary(fileGroupsByInstant.size(), fileGroups, records, seconds(start));
    out.printf(
        "Compacted %s: %d compaction(s), %d file group(s), %d record(s) in %.1f s%n",
        basePath,
        summary.compactions(),
        summary.fileGroups(),
        summary.records(),
        summary.seconds());
    return summary;
  }

  /** The settings the compaction stages take, for the table as it is. */
  private static SinkSettings settings(
      String basePath, TableSettings table, @Nullable MemorySize memory) {
    Configuration options = new Configuration();
    options.set(WriterOptions.PATH, basePath);
    options.set(WriterOptions.TABLE_NAME, table.tableName());
    if (table.orderingField() != null) {
      options.set(WriterOptions.ORDERING_FIELD, table.orderingField());
    }
    options.set(WriterOptions.POPULATE_META_FIELDS, table.populateMetaFields());
    options.set(WriterOptions.COMPACTION_SCHEDULE_ENABLED, true);
    if (memory != null) {
      options.set(WriterOptions.COMPACTION_MEMORY, memory);
    }
    return SinkSettings.of(
        options,
        table.rowType(),
        table.recordKeyFields(),
        table.partitionFields(),
        table.tableName());
  }

  private static double seconds(long startNanos) {
    return (System.nanoTime() - startNanos) / 1e9;
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
