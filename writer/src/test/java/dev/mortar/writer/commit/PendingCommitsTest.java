package dev.mortar.writer.commit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mortar.writer.table.WriteStat;
import dev.mortar.writer.write.WriteResult;
import java.util.List;
import org.junit.jupiter.api.Test;

class PendingCommitsTest {
  private static WriteResult result(String instant, int subtask) {
    WriteStat stat =
        new WriteStat(
            "", "00000000-x", ".00000000-x_" + instant + ".log.1_0-0-0", 1, 1, 0, 0, 1, 10, 0);
    return new WriteResult(instant, 0, subtask, List.of(stat));
  }

  private static List<String> instants(List<PendingCommits.Pending> pending) {
    return pending.stream().map(p -> p.instant).toList();
  }

  @Test
  void anInstantIsCommittableOnlyOnceTheCheckpointThatSealedItCompleted() {
    PendingCommits book = new PendingCommits();
    book.add(result("20260101000000001", 0));
    book.add(result("20260101000000001", 1));
    book.seal(5, 0);
    book.add(result("20260101000000002", 0));
    assertThat(instants(book.committable(4))).isEmpty();
    assertThat(instants(book.committable(5))).containsExactly("20260101000000001");
    assertThat(book.committable(5).get(0).results).hasSize(2);
    book.seal(6, 0);
    assertThat(instants(book.committable(7)))
        .containsExactly("20260101000000001", "20260101000000002");
    assertThat(book.results()).hasSize(3);
    book.remove("20260101000000001");
    assertThat(book.contains("20260101000000001")).isFalse();
    assertThat(instants(book.all())).containsExactly("20260101000000002");
  }
}
