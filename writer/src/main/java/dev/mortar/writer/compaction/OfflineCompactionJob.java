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
import java.util.Set;
import java.util.TreeMap;
import javax.annotation.Nullable;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The offline compactor's job, for tables whose writing job leaves its plans to others ({@code
 * compaction.async.enabled} = false): a bounded Flink job that executes every pending plan of a
 * table, as Hudi's offline compactor does. The client starts each plan ({@code
 * C.compaction.inflight}) and reads its operations with a {@link CompactionDispatcher}; the job
 * feeds them to the same compaction tasks and compaction committer as the writing job ({@link
 * CompactionStages}), in BATCH execution mode, with the {@link AfterCompaction} service it is given
 * (the cleaner) after each commit. Everything about the table (row type, keys, ordering field, meta
 * fields) is read from the table itself ({@link ExistingTable#read}). The command around it is
 * {@code dev.mortar.writer.OfflineCompaction}.
 *
 * <p>Run it only while no job executes the table's plans: two executions of one plan write the same
 * base files. A failed run leaves its plans pending; the next run executes them again from scratch.
 */
public final class OfflineCompactionJob {
  private OfflineCompactionJob() {}

  /**
   * What a run did: compactions committed, their file groups and base file records, and the cleans
   * completed while it ran.
   */
  public record Summary(
      int compactions, int fileGroups, long records, List<String> cleans, double seconds) {}

  /**
   * Executes every pending compaction plan of the table at {@code basePath} as a bounded job on
   * {@code env}, printing one line per committed compaction and a summary to {@code out}.
   *
   * @param memory the merge memory of each compaction task ({@code compaction.memory}), null for
   *     the option's default
   * @param afterCompaction the service the compaction committer starts after each commit
   * @throws IllegalArgumentException naming the path when it holds no table Mortar can compact
   * @throws IllegalStateException naming the plans the job left pending
   */
  public static Summary compact(
      StreamExecutionEnvironment env,
      String basePath,
      int parallelism,
      @Nullable MemorySize memory,
      AfterCompaction afterCompaction,
      PrintStream out)
      throws Exception {
    long start = System.nanoTime();
    TableSettings table = ExistingTable.read(basePath);
    SinkSettings settings = settings(basePath, table, memory);
    List<CompactionTask> tasks = new ArrayList<>();
    Path timelineDir;
    Set<String> cleansBefore;
    try (FileSystem fs = TableFileSystems.open(basePath)) {
      Timeline timeline =
          HudiTable.createOrValidate(fs, TableFileSystems.path(basePath), table).timeline();
      timelineDir = timeline.timelineDir();
      cleansBefore = TimelineSnapshot.read(fs, timelineDir).completedCleans();
      new CompactionDispatcher(fs, timeline, tasks::add).dispatchPending(true);
    }
    if (tasks.isEmpty()) {
      out.println("No pending compaction in " + basePath + ": nothing to do.");
      return new Summary(0, 0, 0, List.of(), seconds(start));
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
        afterCompaction,
        false);
    env.execute("mortar offline compaction: " + table.tableName());

    return report(basePath, timelineDir, fileGroupsByInstant, cleansBefore, start, out);
  }

  /**
   * Prints each compaction's commit, the cleans completed since {@code cleansBefore} and the
   * summary; fails naming any plan left pending.
   */
  private static Summary report(
      String basePath,
      Path timelineDir,
      Map<String, Integer> fileGroupsByInstant,
      Set<String> cleansBefore,
      long start,
      PrintStream out)
      throws IOException {
    List<String> pending = new ArrayList<>();
    int fileGroups = 0;
    long records = 0;
    List<String> cleans = new ArrayList<>();
    try (FileSystem fs = TableFileSystems.open(basePath)) {
      for (String clean : TimelineSnapshot.read(fs, timelineDir).completedCleans()) {
        if (!cleansBefore.contains(clean)) {
          cleans.add(clean);
        }
      }
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
    if (!cleans.isEmpty()) {
      out.printf("Cleaned %s: clean(s) %s%n", basePath, String.join(", ", cleans));
    }
    Summary summary =
        new Summary(fileGroupsByInstant.size(), fileGroups, records, cleans, seconds(start));
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
}
