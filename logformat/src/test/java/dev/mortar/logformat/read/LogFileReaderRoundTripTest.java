package dev.mortar.logformat.read;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mortar.logformat.BlockScratch;
import dev.mortar.logformat.LogBlockFormat;
import dev.mortar.logformat.LogFileStat;
import dev.mortar.logformat.LogFileWriter;
import dev.mortar.logformat.LogWriterOptions;
import dev.mortar.logformat.OrderingValue;
import dev.mortar.logformat.SchemaEvolution;
import dev.mortar.testing.RandomRows;
import dev.mortar.testing.Seeds;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.FloatType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Model-based: random row types and rows (nulls included) and random deletes with ordering values
 * of every wrapper are written with {@link LogFileWriter} — small blocks and files, so a flush
 * spans many blocks and several files — and {@link LogFileReader} must give back exactly the rows,
 * with their meta fields, and the deletes, in order; read again with a {@link KeyFilter} of a
 * random half of the keys, exactly those records. Every other run reads the files as a table that
 * has since gained nullable columns at its end: the rows come back with those columns null.
 */
class LogFileReaderRoundTripTest {
  private static final String FILE_ID = "00000001-0b7e-4c1d-8a4f-3e2d1c0b9a87";
  private static final String INSTANT = "20260301093000456";
  private static final String TOKEN = "7-3-1";

  @TempDir java.nio.file.Path dir;

  /** A delete as written, and what its ordering value's accessors must give. */
  private record Delete(String key, String partition, OrderingValue ordering) {}

  /** An ordering value, its wrapper name and its long or double value (null when it has none). */
  private record Ordering(
      OrderingValue value, String typeName, Long longValue, Double doubleValue) {}

  @ParameterizedTest
  @EnumSource(LogBlockFormat.class)
  void rowsAndDeletesReadBackEqualInOrder(LogBlockFormat format) throws IOException {
    long seed = Seeds.seed("rowsAndDeletesReadBackEqualInOrder[" + format + "]");
    RandomRows random = new RandomRows(seed);
    SplittableRandom choices = new SplittableRandom(seed);
    FileSystem fs = FileSystem.getLocal(new Configuration());
    int iterations = Seeds.size("mortar.iterations", 6);
    // one scratch for every run, as one flush thread keeps it across files of other schemas
    BlockScratch scratch = LogWriterOptions.builder().build().newBlockScratch();
    for (int run = 0; run < iterations; run++) {
      RowType dataType =
          run == 0 ? random.tableRowTypeOfEveryKind() : random.tableRowType(1 + choices.nextInt(8));
      String partition = run % 3 == 2 ? "" : "region=eu/day=" + run;
      LogWriterOptions options =
          LogWriterOptions.builder()
              .blockFormat(format)
              .maxBlockSizeBytes(512 + choices.nextInt(8 << 10))
              .maxFileSizeBytes(run % 2 == 0 ? 1 << 30 : 24 << 10)
              .build();
      Path base = new Path(dir.toUri().toString(), "t" + run);

      List<List<Object>> expectedRows = new ArrayList<>();
      List<Delete> expectedDeletes = new ArrayList<>();
      List<Ordering> orderings = new ArrayList<>();
      List<LogFileStat> stats;
      try (LogFileWriter writer =
          new LogFileWriter(
              fs, base, partition, FILE_ID, INSTANT, TOKEN, dataType, options, scratch)) {
        int rows = choices.nextInt(400);
        for (int i = 0; i < rows; i++) {
          BinaryRowData row = RandomRows.toBinary(dataType, random.tableRow(dataType, i));
          String key = "k" + i + (choices.nextBoolean() ? "-ключ-" + choices.nextInt() : "");
          List<Object> expected = new ArrayList<>();
          expected.addAll(List.of(INSTANT, INSTANT + "_7_" + i, key, partition, FILE_ID));
          expected.addAll(RowValues.of(dataType, row));
          expectedRows.add(expected);
          writer.write(BinaryStringData.fromString(key), row);
        }
        int deletes = choices.nextInt(4) == 0 ? 0 : choices.nextInt(60);
        for (int i = 0; i < deletes; i++) {
          Ordering ordering = randomOrdering(choices);
          String key = "gone-" + i + "-" + choices.nextLong();
          orderings.add(ordering);
          expectedDeletes.add(new Delete(key, partition, ordering.value()));
          writer.delete(BinaryStringData.fromString(key), ordering.value());
        }
        stats = writer.finish();
      }

      RowType readType =
          run % 2 == 1 ? withAddedColumns(widened(dataType, choices), random, choices) : dataType;
      int added = readType.getFieldCount() - dataType.getFieldCount();
      for (List<Object> expected : expectedRows) {
        for (int field = 0; field < dataType.getFieldCount(); field++) {
          int slot = StoredRowType.META_FIELD_COUNT + field;
          expected.set(slot, widenedValue(expected.get(slot), readType.getTypeAt(field)));
        }
        expected.addAll(java.util.Collections.nCopies(added, null));
      }
      RowType storedType = StoredRowType.of(readType);
      List<List<Object>> rows = new ArrayList<>();
      List<Delete> deletes = new ArrayList<>();
      LogRecordSink sink =
          new LogRecordSink() {
            @Override
            public void row(BinaryRowData storedRow) {
              rows.add(RowValues.of(storedType, storedRow));
            }

            @Override
            public void delete(BinaryStringData key, String partitionPath, OrderingValue value) {
              deletes.add(new Delete(key.toString(), partitionPath, value));
            }
          };
      LogFileReader reader = new LogFileReader(readType);
      Path partitionDir = partition.isEmpty() ? base : new Path(base, partition);
      for (LogFileStat stat : stats) {
        LogFileRead read = reader.read(fs, new Path(partitionDir, stat.fileName()), sink);
        assertThat(read.dataBlocks() + read.deleteBlocks()).isEqualTo(stat.numBlocks());
        assertThat(read.deleteBlocks()).isEqualTo(stat.numDeletes() > 0 ? 1 : 0);
        assertThat(read.records()).isEqualTo(stat.numWrites());
        assertThat(read.deletes()).isEqualTo(stat.numDeletes());
        assertThat(read.bytes()).isEqualTo(stat.sizeBytes());
      }

      assertThat(rows)
          .as("run %d, row type %s read as %s", run, dataType, readType)
          .isEqualTo(expectedRows);
      assertThat(deletes).as("run %d", run).isEqualTo(expectedDeletes);

      for (int i = 0; i < deletes.size(); i++) {
        assertAccessors(deletes.get(i).ordering(), orderings.get(i));
      }

      Set<String> kept = new HashSet<>();
      for (List<Object> row : expectedRows) {
        if (choices.nextBoolean()) {
          kept.add((String) row.get(2));
        }
      }
      for (Delete delete : expectedDeletes) {
        if (choices.nextBoolean()) {
          kept.add(delete.key());
        }
      }
      rows.clear();
      deletes.clear();
      KeyFilter keys =
          (utf8, offset, length) -> kept.contains(new String(utf8, offset, length, UTF_8));
      for (LogFileStat stat : stats) {
        LogFileRead read = reader.read(fs, new Path(partitionDir, stat.fileName()), sink, keys);
        assertThat(read.records()).isEqualTo(stat.numWrites());
        assertThat(read.deletes()).isEqualTo(stat.numDeletes());
      }
      assertThat(rows)
          .as("run %d, filtered", run)
          .isEqualTo(
              expectedRows.stream().filter(row -> kept.contains((String) row.get(2))).toList());
      assertThat(deletes)
          .as("run %d, filtered", run)
          .isEqualTo(
              expectedDeletes.stream().filter(delete -> kept.contains(delete.key())).toList());
    }
  }

  /**
   * {@code dataType} with about half of its INT, BIGINT, FLOAT, DOUBLE and DECIMAL columns widened
   * to a random type they are promoted to ({@link SchemaEvolution#isPromotion}).
   */
  private static RowType widened(RowType dataType, SplittableRandom choices) {
    List<RowType.RowField> fields = new ArrayList<>();
    for (RowType.RowField field : dataType.getFields()) {
      LogicalType type = field.getType();
      List<LogicalType> candidates =
          new ArrayList<>(
              List.of(
                  new BigIntType(),
                  new FloatType(),
                  new DoubleType(),
                  new VarCharType(VarCharType.MAX_LENGTH)));
      if (type instanceof DecimalType decimal
          && decimal.getPrecision() <= DecimalType.MAX_PRECISION - 2) {
        candidates.add(new DecimalType(decimal.getPrecision() + 2, decimal.getScale()));
      }
      List<LogicalType> wider =
          candidates.stream()
              .map(candidate -> candidate.copy(type.isNullable()))
              .filter(candidate -> SchemaEvolution.isPromotion(type, candidate))
              .toList();
      LogicalType read =
          wider.isEmpty() || choices.nextBoolean()
              ? type
              : wider.get(choices.nextInt(wider.size()));
      fields.add(new RowType.RowField(field.getName(), read));
    }
    return new RowType(dataType.isNullable(), fields);
  }

  /** {@code value} as the wider {@code type} gives it, as Hudi's readers widen it. */
  private static Object widenedValue(Object value, LogicalType type) {
    if (!(value instanceof Number number) || value instanceof BigDecimal) {
      return value;
    }
    return switch (type.getTypeRoot()) {
      case BIGINT -> number.longValue();
      case FLOAT -> number.floatValue();
      case DOUBLE -> value instanceof Float f ? SchemaEvolution.widen(f) : number.doubleValue();
      case VARCHAR -> value.toString();
      default -> value;
    };
  }

  /** {@code dataType} with one to three random nullable columns added at its end. */
  private static RowType withAddedColumns(
      RowType dataType, RandomRows random, SplittableRandom choices) {
    List<RowType.RowField> fields = new ArrayList<>(dataType.getFields());
    List<RowType.RowField> extra = random.tableRowType(1 + choices.nextInt(3)).getFields();
    for (int i = 1; i < extra.size(); i++) {
      fields.add(new RowType.RowField("added_" + i, extra.get(i).getType().copy(true)));
    }
    return new RowType(dataType.isNullable(), fields);
  }

  private static void assertAccessors(OrderingValue decoded, Ordering expected) {
    assertThat(decoded.typeName()).isEqualTo(expected.typeName());
    assertThat(decoded.isNatural()).isEqualTo(decoded.equals(OrderingValue.natural()));
    if (expected.longValue() != null) {
      assertThat(decoded.longValue()).isEqualTo(expected.longValue());
    } else {
      assertThatThrownBy(decoded::longValue)
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining(expected.typeName());
    }
    if (expected.doubleValue() != null) {
      assertThat(decoded.doubleValue()).isEqualTo(expected.doubleValue());
    } else {
      assertThatThrownBy(decoded::doubleValue)
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining(expected.typeName());
    }
  }

  private static Ordering randomOrdering(SplittableRandom random) {
    switch (random.nextInt(12)) {
      case 0:
        return new Ordering(OrderingValue.natural(), "IntWrapper", 0L, null);
      case 1:
        boolean b = random.nextBoolean();
        return new Ordering(OrderingValue.ofBoolean(b), "BooleanWrapper", b ? 1L : 0L, null);
      case 2:
        int i = random.nextInt();
        return new Ordering(OrderingValue.ofInt(i), "IntWrapper", (long) i, null);
      case 3:
        long l = random.nextLong();
        return new Ordering(OrderingValue.ofLong(l), "LongWrapper", l, null);
      case 4:
        float f = (float) random.nextDouble(-1e6, 1e6);
        return new Ordering(OrderingValue.ofFloat(f), "FloatWrapper", null, (double) f);
      case 5:
        double d = random.nextDouble() * random.nextLong();
        return new Ordering(OrderingValue.ofDouble(d), "DoubleWrapper", null, d);
      case 6:
        byte[] bytes = new byte[random.nextInt(20)];
        random.nextBytes(bytes);
        return new Ordering(OrderingValue.ofBytes(bytes), "BytesWrapper", null, null);
      case 7:
        String s = "v" + random.nextInt() + "-é中😀";
        return new Ordering(OrderingValue.ofString(s), "StringWrapper", null, null);
      case 8:
        int day = random.nextInt(-100_000, 100_000);
        return new Ordering(OrderingValue.ofDate(day), "DateWrapper", (long) day, null);
      case 9:
        BigDecimal decimal =
            new BigDecimal(
                BigInteger.valueOf(random.nextLong(-999_999_999_999_999L, 999_999_999_999_999L)),
                random.nextInt(16));
        return new Ordering(OrderingValue.ofDecimal(decimal), "DecimalWrapper", null, null);
      case 10:
        long micros = random.nextLong(86_400_000_000L);
        return new Ordering(OrderingValue.ofTimeMicros(micros), "TimeMicrosWrapper", micros, null);
      default:
        long ts = random.nextLong(-4_000_000_000_000_000L, 4_000_000_000_000_000L);
        return new Ordering(
            OrderingValue.ofTimestampMicros(ts), "TimestampMicrosWrapper", ts, null);
    }
  }
}
