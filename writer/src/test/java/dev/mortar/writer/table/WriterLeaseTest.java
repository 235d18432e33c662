package dev.mortar.writer.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The writer lease on the local file system: who may take it (nobody while its holder beats, the
 * same writer or job at once, anyone once it expired or was released), heartbeats, the fence, the
 * release command, and two contenders at once, of which exactly one wins. A lease is aged by moving
 * its file's modification time back ({@link #age}), as a holder that stopped beating leaves it.
 */
class WriterLeaseTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(10);
  private static final LeaseHolder FIRST = new LeaseHolder("writer-1", "job-1", "host-a", 1);
  private static final LeaseHolder SECOND = new LeaseHolder("writer-2", "job-2", "host-b", 2);

  @TempDir Path dir;
  private FileSystem fs;
  private WriterLease lease;

  @BeforeEach
  void open() throws Exception {
    fs = FileSystem.newInstance(dir.toUri(), new Configuration());
    lease = WriterLease.of(fs, new org.apache.hadoop.fs.Path(dir.toUri()), TIMEOUT);
  }

  /** Releases the lease, so the clean-up does not wait for a holder that no longer beats. */
  @AfterEach
  void close() throws Exception {
    lease.releaseAnyHolder(new LeaseHolder("test", "test", "host", 0));
    fs.close();
  }

  /** Moves the last heartbeat of the lease {@code millis} into the past. */
  private void age(long millis) throws Exception {
    WriterLease.State state = lease.read().orElseThrow();
    fs.setTimes(
        new org.apache.hadoop.fs.Path(lease.dir(), String.format("%019d", state.generation())),
        state.heartbeatMillis() - millis,
        -1);
  }

  @Test
  void aSecondWriterFailsWhileTheHolderBeatsNamingTheTableTheHolderAndTheOption() throws Exception {
    assertThat(lease.acquire(FIRST)).isEqualTo(1);
    age(TIMEOUT.toMillis() - 1_500);
    assertThatThrownBy(() -> lease.acquire(SECOND))
        .isInstanceOf(WriterLeaseException.class)
        .hasMessageContaining(
            "Cannot write the Mortar table at " + new org.apache.hadoop.fs.Path(dir.toUri()))
        .hasMessageContaining("held by job job-1 on host host-a (writer writer-1)")
        .hasMessageContaining("'writer.lease.timeout' (PT10S)")
        .hasMessageContaining("--release")
        .hasMessageMatching("(?s).*last heartbeat 8\\.[0-9]+ s ago.*");
    assertThat(lease.read().orElseThrow().holder()).isEqualTo(FIRST);
  }

  @Test
  void aHeartbeatMovesTheLeaseToTheNextGenerationAndKeepsItFresh() throws Exception {
    long first = lease.acquire(FIRST);
    age(TIMEOUT.toMillis() - 1_000);
    long renewed = lease.renew(first, FIRST);
    assertThat(renewed).isEqualTo(first + 1);
    assertThat(lease.ageMillis(lease.read().orElseThrow())).isLessThan(1_000);
    assertThatThrownBy(() -> lease.acquire(SECOND)).isInstanceOf(WriterLeaseException.class);
    assertThat(fs.listStatus(lease.dir()))
        .as("older generations are deleted")
        .extracting(status -> status.getPath().getName())
        .containsExactly(String.format("%019d", renewed));
  }

  @Test
  void anExpiredLeaseIsTakenAndItsFormerHolderLosesTheFenceAndItsNextHeartbeat() throws Exception {
    long first = lease.acquire(FIRST);
    lease.checkHeldBy("job-1", "a commit");
    age(TIMEOUT.toMillis() + 1_000);
    assertThatThrownBy(() -> lease.checkHeldBy("job-1", "T_C.deltacommit"))
        .isInstanceOf(WriterLeaseException.class)
        .hasMessageContaining("Flink job job-1 lost the writer lease")
        .hasMessageContaining("not publishing T_C.deltacommit");
    assertThat(lease.acquire(SECOND)).isEqualTo(first + 1);
    lease.checkHeldBy("job-2", "a commit");
    assertThatThrownBy(() -> lease.checkHeldBy("job-1", "T_C.deltacommit"))
        .hasMessageContaining("the lease is now held by job job-2 on host host-b");
    assertThatThrownBy(() -> lease.renew(first, FIRST))
        .isInstanceOf(WriterLeaseException.class)
        .hasMessageContaining("held by job job-2");
    assertThat(lease.read().orElseThrow().holder()).isEqualTo(SECOND);
  }

  @Test
  void theSameWriterOrTheSameJobTakesTheLeaseAtOnce() throws Exception {
    long first = lease.acquire(FIRST);
    LeaseHolder restored = new LeaseHolder("writer-1", "job-3", "host-c", 3);
    assertThat(lease.acquire(restored)).isEqualTo(first + 1);
    assertThatThrownBy(() -> lease.checkHeldBy("job-1", "a commit"))
        .isInstanceOf(WriterLeaseException.class);
    LeaseHolder newJobManager = new LeaseHolder("writer-4", "job-3", "host-d", 4);
    assertThat(lease.acquire(newJobManager)).isEqualTo(first + 2);
    lease.checkHeldBy("job-3", "a commit");
  }

  @Test
  void aReleasedLeaseIsFreeAndItsHolderCanNoLongerPublish() throws Exception {
    long first = lease.acquire(FIRST);
    lease.release(first, FIRST);
    assertThat(lease.read().orElseThrow().released()).isTrue();
    assertThatThrownBy(() -> lease.checkHeldBy("job-1", "a commit"))
        .hasMessageContaining("the lease is now released by job job-1");
    assertThat(lease.acquire(SECOND)).isEqualTo(first + 2);
    lease.release(first, FIRST);
    assertThat(lease.read().orElseThrow().holder())
        .as("a stale release changes nothing")
        .isEqualTo(SECOND);
  }

  @Test
  void theCommandShowsAndReleasesTheLeaseOfAHolder() throws Exception {
    String path = dir.toUri().toString();
    assertThat(run(path, false)).contains("has no writer lease");
    long first = lease.acquire(FIRST);
    assertThat(run(path, false)).startsWith("Held by job job-1 on host host-a (writer writer-1)");
    assertThat(run(path, true)).endsWith("; released it." + System.lineSeparator());
    assertThatThrownBy(() -> lease.renew(first, FIRST)).hasMessageContaining("released by");
    assertThat(lease.acquire(SECOND)).isEqualTo(first + 2);
  }

  private static String run(String path, boolean release) throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    WriterLeaseCommand.run(path, release, new PrintStream(bytes, true, StandardCharsets.UTF_8));
    return bytes.toString(StandardCharsets.UTF_8);
  }

  /**
   * Two contenders for an expired lease start at the same moment, 30 times over: each time exactly
   * one takes the next generation and the other fails, naming the winner.
   */
  @Test
  void ofTwoContendersAtOnceExactlyOneWins() throws Exception {
    ExecutorService threads = Executors.newFixedThreadPool(2);
    try {
      long generation = lease.acquire(new LeaseHolder("writer-0", "job-0", "host", 0));
      for (int round = 0; round < 30; round++) {
        age(TIMEOUT.toMillis() + 1_000);
        LeaseHolder a = new LeaseHolder("a" + round, "job-a" + round, "host-a", round);
        LeaseHolder b = new LeaseHolder("b" + round, "job-b" + round, "host-b", round);
        CyclicBarrier start = new CyclicBarrier(2);
        List<Future<Long>> attempts = new ArrayList<>();
        for (LeaseHolder contender : List.of(a, b)) {
          attempts.add(
              threads.submit(
                  () -> {
                    WriterLease own =
                        WriterLease.of(fs, new org.apache.hadoop.fs.Path(dir.toUri()), TIMEOUT);
                    start.await();
                    return own.acquire(contender);
                  }));
        }
        List<Long> won = new ArrayList<>();
        List<String> lost = new ArrayList<>();
        for (Future<Long> attempt : attempts) {
          try {
            won.add(attempt.get());
          } catch (ExecutionException e) {
            assertThat(e.getCause()).isInstanceOf(WriterLeaseException.class);
            lost.add(e.getCause().getMessage());
          }
        }
        generation++;
        assertThat(won).as("round %s: winners", round).containsExactly(generation);
        LeaseHolder winner = lease.read().orElseThrow().holder();
        assertThat(winner).isIn(a, b);
        assertThat(lost).singleElement().asString().contains("held by " + winner);
      }
    } finally {
      threads.shutdownNow();
    }
  }

  /**
   * The fence reads the lease while its holder beats as fast as it can, 500 heartbeats long: it
   * always finds the holder, also when a listing of the folder named only the generation that the
   * heartbeat deleted before the listing read it.
   */
  @Test
  void theFenceFindsTheLeaseWhileItsHolderBeats() throws Exception {
    long first = lease.acquire(FIRST);
    ExecutorService threads = Executors.newSingleThreadExecutor();
    try {
      Future<Long> beats =
          threads.submit(
              () -> {
                WriterLease own =
                    WriterLease.of(fs, new org.apache.hadoop.fs.Path(dir.toUri()), TIMEOUT);
                long generation = first;
                for (int beat = 0; beat < 500; beat++) {
                  generation = own.renew(generation, FIRST);
                }
                return generation;
              });
      int checks = 0;
      while (!beats.isDone()) {
        lease.checkHeldBy(FIRST.job(), "a check while the holder beats");
        checks++;
      }
      assertThat(beats.get()).isEqualTo(first + 500);
      assertThat(checks).isPositive();
    } finally {
      threads.shutdownNow();
    }
  }
}
