package dev.mortar.writer.it;

import dev.mortar.testing.HudiTableOracle;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.avro.generic.GenericRecord;
import org.apache.flink.types.RowKind;

/**
 * What Hudi's reader shows of a table against the state a {@link Changelog} leads to, computed
 * independently of the sink, counted by kind of violation rather than stopping at the first: a
 * campaign report says how many keys were checked and what went wrong with which.
 */
final class TableVerdict {
  /** What can be wrong with a key. */
  enum Violation {
    /** Expected, not read. */
    LOST,
    /** Read in two file groups (Hudi's reader would return it twice). */
    DUPLICATED,
    /** Read although its last change deleted it. */
    RESURRECTED,
    /** Read with the row of another change than its winning one (an older or a replayed one). */
    STALE,
    /** Read with the winning change's name but another value in some other field. */
    CORRUPT,
    /** Read although no change ever had its key. */
    UNKNOWN,
    /**
     * The table's files or timeline are not what a finished job leaves (a pending instant, ...).
     */
    HYGIENE,
    /** Pages or native bytes of the write tasks' buffers not given back after the run. */
    LEAK,
    /** The job failed or did not finish. */
    JOB_FAILED
  }

  private final Map<Violation, Integer> counts = new EnumMap<>(Violation.class);
  private final List<String> examples = new ArrayList<>();
  private int keysChecked;

  /** Reads the table of {@code job} with Hudi's reader and compares it with {@code changelog}. */
  static TableVerdict of(SinkJob job, Changelog changelog) {
    TableVerdict verdict = new TableVerdict();
    verdict.compareRows(job, changelog);
    return verdict;
  }

  /** The verdict on a run whose job failed: its table is not judged. */
  static TableVerdict failedJob(String failure) {
    TableVerdict verdict = new TableVerdict();
    verdict.add(Violation.JOB_FAILED, failure);
    return verdict;
  }

  private void compareRows(SinkJob job, Changelog changelog) {
    Map<String, Changelog.Op> winners = new HashMap<>();
    for (Changelog.Op op : changelog.winners(job.ordering())) {
      winners.put(Long.toString(op.id()), op);
    }
    Map<String, GenericRecord> read = readOrCount(job.path());
    if (read == null) {
      return;
    }
    winners.forEach(
        (key, winner) -> {
          keysChecked++;
          GenericRecord row = read.remove(key);
          boolean deleted = winner.kind() == RowKind.DELETE;
          if (row == null) {
            if (!deleted) {
              add(Violation.LOST, "key " + key);
            }
          } else if (deleted) {
            add(Violation.RESURRECTED, "key " + key + " read as " + row);
          } else if (!Objects.toString(field(row, "name")).equals(winner.name())) {
            add(Violation.STALE, "key " + key + " read as " + row + ", expected " + winner);
          } else if (!matches(row, winner)) {
            add(Violation.CORRUPT, "key " + key + " read as " + row + ", expected " + winner);
          }
        });
    read.keySet().forEach(key -> add(Violation.UNKNOWN, "key " + key));
  }

  /**
   * The latest row per key Hudi's reader shows; null if the read fails, counted as a duplicate when
   * it found a key in two file groups.
   */
  private Map<String, GenericRecord> readOrCount(String path) {
    try {
      return HudiTableOracle.latestPerKey(path);
    } catch (IllegalStateException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      boolean twice = Objects.toString(cause.getMessage()).contains("in two file groups");
      add(twice ? Violation.DUPLICATED : Violation.HYGIENE, messageChain(cause));
      return null;
    }
  }

  private static boolean matches(GenericRecord row, Changelog.Op winner) {
    return Objects.equals(field(row, "id"), winner.id())
        && Objects.equals(field(row, "ts"), winner.ts())
        && Objects.equals(Objects.toString(field(row, "dt")), winner.dt())
        && Objects.equals(field(row, "amount"), winner.amount());
  }

  private static Object field(GenericRecord row, String name) {
    return row.get(name);
  }

  /** Runs {@code check} (assertions on the table's files), counting a failed one as hygiene. */
  void check(String what, ThrowingCheck check) {
    try {
      check.run();
    } catch (AssertionError | Exception e) {
      add(Violation.HYGIENE, what + ": " + messageChain(e));
    }
  }

  /** A check of the table's files that throws when it does not hold. */
  @FunctionalInterface
  interface ThrowingCheck {
    void run() throws Exception;
  }

  void add(Violation violation, String example) {
    counts.merge(violation, 1, Integer::sum);
    if (examples.size() < 10) {
      examples.add(violation + ": " + example);
    }
  }

  /**
   * The first line of {@code error}'s message, then each cause's class and first line: the cause is
   * what names the file or the race when a reader fails.
   */
  private static String messageChain(Throwable error) {
    StringBuilder text = new StringBuilder(firstLine(error));
    for (Throwable cause = error.getCause(); cause != null; cause = cause.getCause()) {
      text.append(" <- ").append(cause.getClass().getSimpleName()).append(": ");
      text.append(firstLine(cause));
    }
    return text.toString();
  }

  private static String firstLine(Throwable error) {
    String message = error.getMessage();
    return (message == null ? error.getClass().getName() : message).lines().findFirst().orElse("");
  }

  int keysChecked() {
    return keysChecked;
  }

  Map<Violation, Integer> counts() {
    return counts;
  }

  /** The first few violations, each with the key or file it concerns. */
  List<String> examples() {
    return examples;
  }

  boolean clean() {
    return counts.isEmpty();
  }

  /** The counts and the first examples, so a failed assertion names what went wrong. */
  @Override
  public String toString() {
    return counts + " " + examples;
  }
}
