package dev.mortar.writer.it;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.types.Row;
import org.apache.flink.types.RowKind;

/**
 * A random changelog of the test table {@code (id BIGINT, name STRING, ts BIGINT, dt STRING, amount
 * DOUBLE)} and, computed independently of the sink, the latest state per key that Hudi's reader
 * must show: inserts, updates (some with a smaller {@code ts}: out of order), deletes and
 * UPDATE_BEFORE rows the sink must ignore. A key's partition {@code dt} is a function of the key.
 */
public final class Changelog implements Serializable {
  private static final long serialVersionUID = 1L;

  public static final RowType ROW_TYPE =
      (RowType)
          DataTypes.ROW(
                  DataTypes.FIELD("id", DataTypes.BIGINT().notNull()),
                  DataTypes.FIELD("name", DataTypes.STRING()),
                  DataTypes.FIELD("ts", DataTypes.BIGINT()),
                  DataTypes.FIELD("dt", DataTypes.STRING()),
                  DataTypes.FIELD("amount", DataTypes.DOUBLE()))
              .notNull()
              .getLogicalType();

  /** One change. */
  public record Op(RowKind kind, long id, String name, long ts, String dt, double amount)
      implements Serializable {
    RowData toRowData() {
      return GenericRowData.ofKind(
          kind, id, StringData.fromString(name), ts, StringData.fromString(dt), amount);
    }

    Row toRow() {
      return Row.ofKind(kind, id, name, ts, dt, amount);
    }
  }

  private final List<Op> ops;

  private Changelog(List<Op> ops) {
    this.ops = ops;
  }

  /**
   * {@code count} changes over keys {@code [0, keys)}; {@code deletes} and {@code updateBefore} are
   * per-mille shares. Ordering values are in [1, 1000] so no delete carries Hudi's default ordering
   * value 0 (which deletes unconditionally).
   */
  public static Changelog random(long seed, int count, int keys, int deletes, int updateBefore) {
    SplittableRandom random = new SplittableRandom(seed);
    List<Op> ops = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      long id = random.nextInt(keys);
      int roll = random.nextInt(1000);
      RowKind kind =
          roll < deletes
              ? RowKind.DELETE
              : roll < deletes + updateBefore
                  ? RowKind.UPDATE_BEFORE
                  : random.nextBoolean() ? RowKind.INSERT : RowKind.UPDATE_AFTER;
      String name = "n" + i + "-" + Long.toHexString(random.nextLong());
      ops.add(
          new Op(kind, id, name, 1 + random.nextInt(1000), dt(id), random.nextInt(100_000) / 7.0));
    }
    return new Changelog(ops);
  }

  /**
   * This changelog with every change that follows a delete of its key given at least the delete's
   * ordering value. A compacted delete leaves no tombstone (its ordering value is gone with it), so
   * a later change of smaller ordering value would revive the key or not depending on whether a
   * compaction ran between them; after this, the expected rows do not depend on compactions.
   */
  public Changelog withoutStaleChangesAfterDeletes() {
    Map<Long, Long> deletedAt = new HashMap<>();
    List<Op> adjusted = new ArrayList<>(ops.size());
    for (Op op : ops) {
      long ts = Math.max(op.ts(), deletedAt.getOrDefault(op.id(), Long.MIN_VALUE));
      Op kept = new Op(op.kind(), op.id(), op.name(), ts, op.dt(), op.amount());
      adjusted.add(kept);
      if (op.kind() == RowKind.DELETE) {
        deletedAt.merge(op.id(), ts, Math::max);
      }
    }
    return new Changelog(adjusted);
  }

  /** The changes from {@code from} (inclusive) to {@code to} (exclusive). */
  public Changelog slice(int from, int to) {
    return new Changelog(new ArrayList<>(ops.subList(from, to)));
  }

  /**
   * This changelog's changes, then {@code next}'s: what two jobs writing one after the other do.
   */
  public Changelog followedBy(Changelog next) {
    List<Op> both = new ArrayList<>(ops);
    both.addAll(next.ops);
    return new Changelog(both);
  }

  static String dt(long id) {
    return "2026-11-0" + (1 + id % 3);
  }

  public List<Op> ops() {
    return ops;
  }

  /**
   * Per key the winning change, deletes included: with ordering, a change wins if its ts is at
   * least the current winner's; without, the last change wins. Emitting these again changes
   * nothing: each wins (or ties and wins) against itself.
   */
  public List<Op> winners(boolean eventTimeOrdering) {
    Map<Long, Op> winner = new HashMap<>();
    for (Op op : ops) {
      if (wins(op, winner.get(op.id()), eventTimeOrdering)) {
        winner.put(op.id(), op);
      }
    }
    return new ArrayList<>(winner.values());
  }

  /** Whether {@code op} replaces {@code current} (null: none yet) as its key's winner. */
  private static boolean wins(Op op, Op current, boolean eventTimeOrdering) {
    return op.kind() != RowKind.UPDATE_BEFORE
        && (!eventTimeOrdering || current == null || op.ts() >= current.ts());
  }

  /**
   * The length of the first prefix of this changelog, at least {@code from} changes long, whose
   * expected rows are exactly {@code nameByKey} (the {@code name} of each key's row); -1 if none. A
   * table read while a job writes it must match the prefix its last checkpoint covered.
   */
  public int prefixMatching(Map<String, String> nameByKey, int from, boolean eventTimeOrdering) {
    Map<Long, Op> winner = new HashMap<>();
    int mismatches = nameByKey.size();
    for (int length = 0; ; length++) {
      if (mismatches == 0 && length >= from) {
        return length;
      }
      if (length == ops.size()) {
        return -1;
      }
      Op op = ops.get(length);
      Op current = winner.get(op.id());
      if (!wins(op, current, eventTimeOrdering)) {
        continue;
      }
      winner.put(op.id(), op);
      String read = nameByKey.get(Long.toString(op.id()));
      boolean matched = Objects.equals(read, expectedName(current));
      boolean matches = Objects.equals(read, expectedName(op));
      mismatches += (matched ? 1 : 0) - (matches ? 1 : 0);
    }
  }

  /**
   * For a read that matches no prefix: the prefix of at least {@code from} changes it comes closest
   * to, and the keys where it differs (read name against expected name, at most 20).
   */
  public String closestPrefix(Map<String, String> nameByKey, int from, boolean eventTimeOrdering) {
    Map<Long, Op> winner = new HashMap<>();
    int mismatches = nameByKey.size();
    int best = -1;
    int bestMismatches = Integer.MAX_VALUE;
    for (int length = 0; length <= ops.size(); length++) {
      if (length >= from && mismatches < bestMismatches) {
        best = length;
        bestMismatches = mismatches;
      }
      if (length == ops.size()) {
        break;
      }
      Op op = ops.get(length);
      Op current = winner.get(op.id());
      if (wins(op, current, eventTimeOrdering)) {
        winner.put(op.id(), op);
        String read = nameByKey.get(Long.toString(op.id()));
        mismatches +=
            (Objects.equals(read, expectedName(current)) ? 1 : 0)
                - (Objects.equals(read, expectedName(op)) ? 1 : 0);
      }
    }
    Map<Long, Op> expected = new HashMap<>();
    for (Op op : ops.subList(0, best)) {
      if (wins(op, expected.get(op.id()), eventTimeOrdering)) {
        expected.put(op.id(), op);
      }
    }
    List<String> differences = new ArrayList<>();
    java.util.Set<String> keys = new java.util.TreeSet<>(nameByKey.keySet());
    expected.keySet().forEach(id -> keys.add(Long.toString(id)));
    for (String key : keys) {
      String want = expectedName(expected.get(Long.parseLong(key)));
      if (!Objects.equals(nameByKey.get(key), want)) {
        differences.add(key + ": read " + nameByKey.get(key) + ", expected " + want);
      }
    }
    return "closest prefix "
        + best
        + " with "
        + differences.size()
        + " difference(s): "
        + differences.subList(0, Math.min(20, differences.size()));
  }

  private static String expectedName(Op winner) {
    return winner == null || winner.kind() == RowKind.DELETE ? null : winner.name();
  }

  /**
   * The rows Hudi must show: per key the {@linkplain #winners winning} change if it is not a
   * delete.
   */
  public Map<String, Op> expected(boolean eventTimeOrdering) {
    Map<String, Op> rows = new HashMap<>();
    for (Op op : winners(eventTimeOrdering)) {
      if (op.kind() != RowKind.DELETE) {
        rows.put(Long.toString(op.id()), op);
      }
    }
    return rows;
  }
}
