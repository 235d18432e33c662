package dev.mortar.writer.compaction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.mortar.serde.Operation;
import dev.mortar.testing.Seeds;
import java.io.File;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.flink.table.data.binary.BinaryRowData;
import org.apache.flink.table.data.binary.BinaryStringData;
import org.apache.flink.table.data.writer.BinaryRowWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SpillFileTest {
  private static final int KEY_FIELD = 1;

  @TempDir Path dir;

  /** What one spilled record reads back as. */
  private record Spilled(Operation operation, long ordering, String key, String value) {}

  @Test
  void readsBackEveryRecordInOrderWithRowsAndKeysOfAnyLength() throws IOException {
    long seed = Seeds.seed("SpillFileTest");
    SplittableRandom random = new SplittableRandom(seed);
    SpillFile spill = SpillFile.create(dir.toFile(), 3, KEY_FIELD);
    List<Spilled> written = new ArrayList<>();
    for (int i = 0; i < 2_000; i++) {
      String key = randomText(random, random.nextInt(1, 600));
      long ordering = random.nextLong();
      if (random.nextInt(4) == 0) {
        spill.writeDelete(ordering, BinaryStringData.fromString(key));
        written.add(new Spilled(Operation.DELETE, ordering, key, null));
      } else {
        String value = randomText(random, random.nextInt(0, 3_000));
        spill.writeUpsert(ordering, row(i, key, value));
        written.add(new Spilled(Operation.UPDATE, ordering, key, value));
      }
    }
    spill.finishWriting();
    assertThat(spill.records()).isEqualTo(written.size());

    List<Spilled> read = new ArrayList<>();
    spill.read(
        (operation, ordering, key, row) ->
            read.add(
                new Spilled(
                    operation,
                    ordering,
                    key.toString(),
                    row == null ? null : row.getString(2).toString())));
    assertThat(read).as("seed %s", seed).isEqualTo(written);

    spill.delete();
    assertThat(dir.toFile().list()).isEmpty();
  }

  @Test
  void aFileCutShortFailsNamingIt() throws IOException {
    SpillFile spill = SpillFile.create(dir.toFile(), 3, KEY_FIELD);
    spill.writeUpsert(1, row(1, "a", "x"));
    spill.writeUpsert(2, row(2, "b", "y"));
    spill.finishWriting();
    File file = dir.toFile().listFiles()[0];
    try (RandomAccessFile cut = new RandomAccessFile(file, "rw")) {
      cut.setLength(cut.length() - 1);
    }
    assertThatThrownBy(() -> spill.read((operation, ordering, key, row) -> {}))
        .isInstanceOf(IOException.class)
        .hasMessageContaining(file.getName())
        .hasMessageContaining("ends before its 2 records");
    spill.delete();
    assertThat(file).doesNotExist();
  }

  private static BinaryRowData row(long id, String key, String value) {
    BinaryRowData row = new BinaryRowData(3);
    BinaryRowWriter writer = new BinaryRowWriter(row);
    writer.writeLong(0, id);
    writer.writeString(KEY_FIELD, BinaryStringData.fromString(key));
    writer.writeString(2, BinaryStringData.fromString(value));
    writer.complete();
    return row;
  }

  private static String randomText(SplittableRandom random, int length) {
    StringBuilder text = new StringBuilder(length);
    for (int i = 0; i < length; i++) {
      text.append(random.nextInt(8) == 0 ? 'é' : (char) ('a' + random.nextInt(26)));
    }
    return text.toString();
  }
}
