package dev.mortar.benchmark.quickstart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The quick-start job end to end on a small run: written, committed, read back by Hudi. */
class QuickStartTest {

  @Test
  void writesATableThatHudisReaderReadsBack(@TempDir Path temp) throws Exception {
    Path table = temp.resolve("table");
    long rows = 20_000;
    var flags = QuickStart.flags();
    flags.parse(
        new String[] {
          "--rows", Long.toString(rows),
          "--parallelism", "2",
          "--buckets", "3",
          "--checkpoint-ms", "2000",
          "--path", table.toString()
        });

    long read = QuickStart.run(flags);

    // 20,000 keys drawn uniformly from 100M collide about twice: distinct keys are just below.
    assertThat(read).isBetween(rows - 50, rows);
    assertThat(QuickStart.completedCommits(table)).isGreaterThanOrEqualTo(1);
  }

  @Test
  void refusesAnExistingFolder(@TempDir Path temp) throws Exception {
    Files.createDirectories(temp.resolve("taken"));
    var flags = QuickStart.flags();
    flags.parse(new String[] {"--path", temp.resolve("taken").toString()});

    assertThatThrownBy(() -> QuickStart.run(flags))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("exists")
        .hasMessageContaining("--path");
  }
}
