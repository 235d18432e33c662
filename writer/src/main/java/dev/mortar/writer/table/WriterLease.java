package dev.mortar.writer.table;

import dev.mortar.writer.options.WriterOptions;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.Properties;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The lease that makes one job at a time the writer of a table. It lives in numbered files, one per
 * generation, each written once with a create that fails if the file exists ({@link
 * AtomicFile#createNew}):
 *
 * <pre>
 *   .hoodie/.aux/mortar-writer-lease/
 *     0000000000000000041   older generations, deleted by the winner of a newer one
 *     0000000000000000042   the lease: writer, job, host, started.millis, released
 * </pre>
 *
 * <p>The newest generation is the lease; its file's modification time is the holder's last
 * heartbeat. Every change is the creation of the next generation: acquiring, a heartbeat, a
 * takeover and a release alike. So of two processes that act on generation N at once (a holder
 * renewing and a contender taking over, or two contenders), exactly one creates N+1 and the other
 * learns that it lost. A lease may be taken when it is released, when its last heartbeat is older
 * than {@code writer.lease.timeout}, or by the same writer (a job restored from the holder's
 * checkpoint or savepoint, which first gives the holder a moment to release it: {@link
 * #earlierJobOfWriter}) or the same Flink job (its JobManager started anew). Times are compared
 * with the file system's modification times, so the hosts' clocks must agree to well within the
 * timeout. Design: rfc/0004, "The writer lease".
 */
public final class WriterLease {
  /** The lease folder's name, under {@code .hoodie/.aux}. */
  public static final String FOLDER = "mortar-writer-lease";

  private static final String RELEASED = "released";
  private static final int ACQUIRE_ATTEMPTS = 3;

  /** The newest lease file: its generation, holder, whether released, and last heartbeat. */
  public record State(
      long generation, LeaseHolder holder, boolean released, long heartbeatMillis) {}

  private final FileSystem fs;
  private final Path basePath;
  private final Path dir;
  private final Path tempDir;
  private final Duration timeout;

  private WriterLease(FileSystem fs, Path basePath, Duration timeout) {
    this.fs = fs;
    this.basePath = basePath;
    this.dir = new Path(new Path(new Path(basePath, HudiTable.META_FOLDER), ".aux"), FOLDER);
    this.tempDir = HudiTable.tempDir(basePath);
    this.timeout = timeout;
  }

  /** The lease of the table at {@code basePath}, expiring {@code timeout} after a heartbeat. */
  public static WriterLease of(FileSystem fs, Path basePath, Duration timeout) {
    return new WriterLease(fs, basePath, timeout);
  }

  /** The lease as it is now; empty if the table never had one. */
  public Optional<State> read() throws IOException {
    while (true) {
      FileStatus newest = newestFile();
      if (newest == null) {
        return Optional.empty();
      }
      Properties properties = new Properties();
      try (InputStream in = fs.open(newest.getPath())) {
        properties.load(in);
      } catch (FileNotFoundException deleted) {
        continue; // a newer generation's winner deleted it after the listing: list again
      }
      try {
        return Optional.of(
            new State(
                Long.parseLong(newest.getPath().getName()),
                LeaseHolder.from(properties),
                Boolean.parseBoolean(properties.getProperty(RELEASED)),
                newest.getModificationTime()));
      } catch (IllegalArgumentException e) {
        throw new IOException("cannot read the writer lease " + newest.getPath(), e);
      }
    }
  }

  /**
   * Takes the lease for {@code me}: creates its next generation.
   *
   * @return the generation {@code me} holds
   * @throws WriterLeaseException if another writer holds it and its heartbeat is recent
   */
  public long acquire(LeaseHolder me) throws IOException {
    for (int attempt = 0; attempt < ACQUIRE_ATTEMPTS; attempt++) {
      Optional<State> current = read();
      if (current.isPresent() && blocks(current.get(), me)) {
        throw new WriterLeaseException(heldByAnother(current.get()));
      }
      long next = current.map(state -> state.generation() + 1).orElse(1L);
      if (create(next, me, false)) {
        return next;
      }
    }
    throw new WriterLeaseException(
        "Cannot take the writer lease of the table at "
            + basePath
            + ": it changed hands "
            + ACQUIRE_ATTEMPTS
            + " times while "
            + me
            + " tried; "
            + read().map(this::describe).orElse("it is gone"));
  }

  /**
   * The holder of the lease if it is {@code me}'s writer in another Flink job and the lease is live
   * (neither released nor expired): the job {@code me} was restored from, perhaps cancelled and
   * still closing its tasks.
   */
  public Optional<LeaseHolder> earlierJobOfWriter(LeaseHolder me) throws IOException {
    return read()
        .filter(state -> !state.released() && !expired(state))
        .map(State::holder)
        .filter(held -> held.writer().equals(me.writer()) && !held.job().equals(me.job()));
  }

  private boolean blocks(State state, LeaseHolder me) {
    return !state.released() && !state.holder().sameWriterOrJob(me) && !expired(state);
  }

  private boolean expired(State state) {
    return ageMillis(state) > timeout.toMillis();
  }

  /**
   * A heartbeat: moves the lease of {@code me} from {@code generation} to the next one.
   *
   * @return the new generation
   * @throws WriterLeaseException if {@code generation} is no longer the lease (another writer took
   *     it, or it was released)
   */
  public long renew(long generation, LeaseHolder me) throws IOException {
    State current = read().orElse(null);
    if (current == null || current.generation() != generation) {
      throw new WriterLeaseException(lost(me.job(), current));
    }
    if (!create(generation + 1, me, false)) {
      throw new WriterLeaseException(lost(me.job(), read().orElse(null)));
    }
    return generation + 1;
  }

  /** Gives the lease up, if {@code generation} of {@code me} still is the lease. */
  public void release(long generation, LeaseHolder me) throws IOException {
    Optional<State> current = read();
    if (current.isPresent() && current.get().generation() == generation) {
      create(generation + 1, me, true);
    }
  }

  /**
   * Releases whoever holds the lease, on behalf of {@code by} (the command for a dead writer); a
   * running holder fails before its next commit.
   *
   * @return the lease before the release; empty if there was none
   */
  public Optional<State> releaseAnyHolder(LeaseHolder by) throws IOException {
    Optional<State> current = read();
    if (current.isPresent() && !current.get().released()) {
      create(current.get().generation() + 1, by, true);
    }
    return current;
  }

  /**
   * The fence: passes only while Flink job {@code job} holds the lease and its heartbeat is recent.
   *
   * @param publishing what the job is about to publish, for the message
   * @throws WriterLeaseException otherwise
   */
  public void checkHeldBy(String job, String publishing) throws IOException {
    State current = read().orElse(null);
    if (current != null
        && !current.released()
        && current.holder().job().equals(job)
        && !expired(current)) {
      return;
    }
    throw new WriterLeaseException(lost(job, current) + "; not publishing " + publishing);
  }

  /** Milliseconds since the lease's last heartbeat. */
  public long ageMillis(State state) {
    return System.currentTimeMillis() - state.heartbeatMillis();
  }

  public Duration timeout() {
    return timeout;
  }

  /** The lease folder, {@code .hoodie/.aux/mortar-writer-lease}. */
  public Path dir() {
    return dir;
  }

  /**
   * Creates generation {@code generation}, held by {@code holder} or released; false if it exists.
   * The winner deletes the older generations.
   */
  private boolean create(long generation, LeaseHolder holder, boolean released) throws IOException {
    Properties properties = new Properties();
    holder.putInto(properties);
    properties.setProperty(RELEASED, Boolean.toString(released));
    fs.mkdirs(dir);
    if (!AtomicFile.createNew(
        fs,
        tempDir,
        new Path(dir, String.format("%019d", generation)),
        out -> properties.store(out, "Mortar writer lease"))) {
      return false;
    }
    for (FileStatus file : fs.listStatus(dir)) {
      if (generationOf(file) < generation) {
        fs.delete(file.getPath(), false);
      }
    }
    return true;
  }

  /**
   * The newest lease file; null if the folder holds none. A listing that finds none is taken again
   * once: a listing is not atomic on the local disk (it reads the names, then each file's status),
   * so a listing that began before a heartbeat created generation N+1 and read N's status after the
   * heartbeat deleted N names neither. The second listing begins after that deletion, which follows
   * the creation of N+1, so it finds N+1 unless a further heartbeat replaced it in the meantime.
   */
  private FileStatus newestFile() throws IOException {
    FileStatus newest = newestListed();
    return newest != null ? newest : newestListed();
  }

  private FileStatus newestListed() throws IOException {
    FileStatus[] files;
    try {
      files = fs.listStatus(dir);
    } catch (FileNotFoundException none) {
      return null;
    }
    FileStatus newest = null;
    for (FileStatus file : files) {
      if (generationOf(file) > 0 && (newest == null || generationOf(file) > generationOf(newest))) {
        newest = file;
      }
    }
    return newest;
  }

  /** The generation a lease file is named by; 0 for any other file (Hadoop's .crc files). */
  private static long generationOf(FileStatus file) {
    String name = file.getPath().getName();
    return name.matches("[0-9]{19}") ? Long.parseLong(name) : 0;
  }

  private String heldByAnother(State state) {
    return "Cannot write the Mortar table at "
        + basePath
        + ": another writer holds its lease, "
        + describe(state)
        + ". A lease expires '"
        + WriterOptions.WRITER_LEASE_TIMEOUT.key()
        + "' ("
        + timeout
        + ") after its last heartbeat. Stop that job; or restore this job from that job's"
        + " checkpoint or savepoint, which takes its place; or, if it is dead, wait until its lease"
        + " expires or release it with "
        + WriterLeaseCommand.usage(basePath.toString());
  }

  private String lost(String job, State state) {
    return "Flink job "
        + job
        + " lost the writer lease of the Mortar table at "
        + basePath
        + ": "
        + (state == null ? "the lease is gone" : "the lease is now " + describe(state))
        + " (a lease expires '"
        + WriterOptions.WRITER_LEASE_TIMEOUT.key()
        + "' = "
        + timeout
        + " after its last heartbeat)";
  }

  private String describe(State state) {
    return (state.released() ? "released by " : "held by ")
        + state.holder()
        + ", started at "
        + Instant.ofEpochMilli(state.holder().startedMillis())
        + ", last heartbeat "
        + ageMillis(state) / 1000.0
        + " s ago (generation "
        + state.generation()
        + " in "
        + dir
        + ")";
  }
}
