package dev.mortar.writer.it;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mortar.writer.it.CampaignRun.Outcome;
import dev.mortar.writer.it.Failures.Fired;
import dev.mortar.writer.it.Failures.Plan;
import dev.mortar.writer.it.TableVerdict.Violation;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * What a {@link Campaign} tried and found, for a person to read: totals (runs, failures fired by
 * kind, interruptions, rescales, keys checked, violations by kind), then one line per run with its
 * seed, so any run can be replayed. Written as {@code campaign.json} and {@code campaign.md}.
 */
final class CampaignReport {
  private final List<Outcome> outcomes = new ArrayList<>();

  void add(Outcome outcome) {
    outcomes.add(outcome);
  }

  List<Outcome> outcomes() {
    return outcomes;
  }

  /** The runs that found a violation. */
  List<Outcome> failed() {
    return outcomes.stream().filter(outcome -> !outcome.verdict().clean()).toList();
  }

  private Map<String, Object> totals() {
    Map<String, Object> totals = new LinkedHashMap<>();
    totals.put("runs", outcomes.size());
    totals.put("runsWithViolations", failed().size());
    totals.put("keysChecked", sum(outcome -> (long) outcome.verdict().keysChecked()));
    totals.put("failuresFired", countBy(outcome -> kinds(outcome.fired())));
    totals.put(
        "failuresArmedNotReached",
        outcomes.stream().mapToLong(outcome -> armed(outcome) - outcome.fired().size()).sum());
    totals.put(
        "interruptions",
        countBy(outcome -> List.of(outcome.plan().interruption().name().toLowerCase(Locale.ROOT))));
    totals.put("restores", outcomes.stream().filter(Outcome::interrupted).count());
    totals.put(
        "rescalesUp",
        outcomes.stream()
            .filter(
                o ->
                    o.interrupted()
                        && o.plan().restored().parallelism() > o.plan().job().parallelism())
            .count());
    totals.put(
        "rescalesDown",
        outcomes.stream()
            .filter(
                o ->
                    o.interrupted()
                        && o.plan().restored().parallelism() < o.plan().job().parallelism())
            .count());
    totals.put("offHeapRuns", outcomes.stream().filter(o -> o.plan().job().offHeap()).count());
    totals.put(
        "managedMemoryRuns", outcomes.stream().filter(o -> o.plan().job().managedMemory()).count());
    totals.put("shapes", countBy(CampaignReport::shapeTags));
    Map<String, Long> violations = new TreeMap<>();
    for (Outcome outcome : outcomes) {
      outcome
          .verdict()
          .counts()
          .forEach((kind, count) -> violations.merge(kind.name(), (long) count, Long::sum));
    }
    totals.put("violations", violations);
    totals.put("seconds", sum(outcome -> outcome.millis()) / 1000);
    return totals;
  }

  private static List<String> shapeTags(Outcome outcome) {
    SinkJob job = outcome.plan().job();
    List<String> tags = new ArrayList<>();
    tags.add(job.format().name().toLowerCase(Locale.ROOT));
    tags.add(job.deduplication().name().toLowerCase(Locale.ROOT));
    tags.add(job.partitioned() ? "partitioned" : "unpartitioned");
    tags.add(job.compactionDeltaCommits() > 0 ? "compacting" : "not compacting");
    if (job.cleanRetainCommits() > 0) {
      tags.add("cleaning and archiving");
    }
    if (outcome.plan().sql()) {
      tags.add("sql");
    }
    if (job.unalignedCheckpoints()) {
      tags.add("unaligned checkpoints");
    }
    if (job.flushThreads() > 1) {
      tags.add("flush threads");
    }
    return tags;
  }

  private static List<String> kinds(List<Fired> fired) {
    return fired.stream().map(f -> f.point().name()).toList();
  }

  private static long armed(Outcome outcome) {
    RunPlan plan = outcome.plan();
    return plan.faultsBefore().size() + (outcome.interrupted() ? plan.faultsAfter().size() : 0);
  }

  private long sum(Function<Outcome, Long> value) {
    return outcomes.stream().mapToLong(value::apply).sum();
  }

  private Map<String, Long> countBy(Function<Outcome, List<String>> tags) {
    Map<String, Long> counts = new TreeMap<>();
    for (Outcome outcome : outcomes) {
      tags.apply(outcome).forEach(tag -> counts.merge(tag, 1L, Long::sum));
    }
    return counts;
  }

  private static Map<String, Object> run(Outcome outcome) {
    RunPlan plan = outcome.plan();
    Map<String, Object> run = new LinkedHashMap<>();
    run.put("seed", plan.seed());
    run.put("job", plan.describe());
    run.put("faultsArmed", plans(plan.faultsBefore(), plan.faultsAfter(), outcome.interrupted()));
    run.put("faultsFired", outcome.fired().stream().map(Fired::toString).toList());
    run.put("restoredFrom", outcome.restoredFrom());
    run.put("keysChecked", outcome.verdict().keysChecked());
    Map<String, Integer> violations = new TreeMap<>();
    outcome.verdict().counts().forEach((kind, count) -> violations.put(kind.name(), count));
    run.put("violations", violations);
    run.put("examples", outcome.verdict().examples());
    run.put("millis", outcome.millis());
    return run;
  }

  private static List<String> plans(List<Plan> before, List<Plan> after, boolean restored) {
    List<String> plans = new ArrayList<>();
    before.forEach(plan -> plans.add(plan.point() + " at " + plan.at()));
    if (restored) {
      after.forEach(plan -> plans.add(plan.point() + " at " + plan.at() + " (restored job)"));
    }
    return plans;
  }

  /** Writes {@code campaign.json} and {@code campaign.md} into {@code folder}. */
  void write(Path folder, String command) throws IOException {
    Files.createDirectories(folder);
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("command", command);
    json.put("totals", totals());
    json.put("runs", outcomes.stream().map(CampaignReport::run).toList());
    new ObjectMapper()
        .writerWithDefaultPrettyPrinter()
        .writeValue(folder.resolve("campaign.json").toFile(), json);
    Files.writeString(folder.resolve("campaign.md"), markdown(command));
  }

  /** The Markdown report: totals, violations with their seeds, then every run. */
  String markdown(String command) {
    StringBuilder md = new StringBuilder("# Failure campaign\n\n`").append(command).append("`\n\n");
    md.append(totalsTable());
    md.append("\n## Violations\n\n");
    if (failed().isEmpty()) {
      md.append("None.\n");
    }
    for (Outcome outcome : failed()) {
      md.append("- seed ")
          .append(outcome.plan().seed())
          .append(" (`bin/campaign --seed ")
          .append(outcome.plan().seed())
          .append("`): ")
          .append(outcome.verdict().counts())
          .append("\n");
      outcome
          .verdict()
          .examples()
          .forEach(example -> md.append("  - ").append(example).append('\n'));
    }
    md.append("\n## Runs\n\n| seed | job | failures fired | restored | keys | result | s |\n")
        .append("|---|---|---|---|---|---|---|\n");
    for (Outcome outcome : outcomes) {
      md.append("| ")
          .append(outcome.plan().seed())
          .append(" | ")
          .append(outcome.plan().describe())
          .append(" | ")
          .append(String.join(", ", kinds(outcome.fired())))
          .append(" | ")
          .append(outcome.interrupted() ? "yes" : "no")
          .append(" | ")
          .append(outcome.verdict().keysChecked())
          .append(" | ")
          .append(outcome.verdict().clean() ? "exact" : outcome.verdict().counts())
          .append(" | ")
          .append(outcome.millis() / 1000)
          .append(" |\n");
    }
    return md.toString();
  }

  /** The totals as a Markdown table. */
  String totalsTable() {
    StringBuilder table = new StringBuilder("| total | value |\n|---|---|\n");
    totals()
        .forEach(
            (name, value) ->
                table.append("| ").append(name).append(" | ").append(value).append(" |\n"));
    return table.toString();
  }

  /** One line per run for the progress log. */
  static String progressLine(int index, int runs, Outcome outcome) {
    return String.format(
        Locale.ROOT,
        "[campaign] run %d/%d seed %d: %s in %.1f s; fired %s; %s",
        index,
        runs,
        outcome.plan().seed(),
        outcome.verdict().clean() ? "exact" : "VIOLATIONS " + outcome.verdict().counts(),
        outcome.millis() / 1000.0,
        kinds(outcome.fired()),
        outcome.plan().describe());
  }

  /** Violations by kind over all runs. */
  Map<Violation, Integer> violations() {
    Map<Violation, Integer> all = new EnumMap<>(Violation.class);
    outcomes.forEach(
        outcome -> outcome.verdict().counts().forEach((k, v) -> all.merge(k, v, Integer::sum)));
    return all;
  }
}
