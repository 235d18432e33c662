package dev.mortar.writer.it;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.annotation.Nullable;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * A test job in a process of its own, on its own embedded MiniCluster, as a user runs a job that
 * may lose its whole process (JobManager and TaskManager together, no high availability): the test
 * writes the {@link Spec} to a file and starts {@link #main} on it; it may kill the process with
 * SIGKILL or stop its job with a savepoint, and start another one on the same table restored from a
 * retained checkpoint or that savepoint. The stop is asked for as {@code flink stop} would: a
 * request file {@code <name>.stop} names the savepoint folder, and the process answers with the
 * savepoint's path in {@code <name>.savepoint}. A process given a failure point to halt at ends
 * there by itself, leaving what fired in {@code <name>.halted}.
 */
final class JobProcess {
  /**
   * The job, its input, where it keeps its checkpoints, what it starts from (null: nothing) and the
   * failure point at which its JVM halts (null: none).
   */
  record Spec(
      SinkJob job,
      Changelog changelog,
      String checkpoints,
      @Nullable String restoreFrom,
      @Nullable Failures.Plan haltAt)
      implements Serializable {
    Spec(SinkJob job, Changelog changelog, String checkpoints, @Nullable String restoreFrom) {
      this(job, changelog, checkpoints, restoreFrom, null);
    }
  }

  private static final Duration STOP_LIMIT = Duration.ofMinutes(2);

  private final Process process;
  private final Path output;
  private final Path stopRequest;
  private final Path savepointAnswer;

  private JobProcess(Process process, Path output, Path stopRequest) {
    this.process = process;
    this.output = output;
    this.stopRequest = stopRequest;
    this.savepointAnswer = answerTo(stopRequest);
  }

  private static Path answerTo(Path stopRequest) {
    return sibling(stopRequest, ".savepoint");
  }

  private static Path haltRecordOf(Path stopRequest) {
    return sibling(stopRequest, ".halted");
  }

  private static Path sibling(Path stopRequest, String suffix) {
    String name = stopRequest.getFileName().toString();
    return stopRequest.resolveSibling(name.replace(".stop", suffix));
  }

  /** Starts {@code spec} in a new JVM; its files go to {@code folder} under {@code name}. */
  static JobProcess start(Spec spec, Path folder, String name) throws IOException {
    Path specFile = folder.resolve(name + ".spec");
    try (ObjectOutputStream out = new ObjectOutputStream(Files.newOutputStream(specFile))) {
      out.writeObject(spec);
    }
    Path stopRequest = folder.resolve(name + ".stop");
    return new JobProcess(
        JavaProcess.start(
            folder,
            name,
            List.of("-Xmx1g"),
            JobProcess.class,
            List.of(specFile.toString(), stopRequest.toString())),
        JavaProcess.output(folder, name),
        stopRequest);
  }

  boolean isAlive() {
    return process.isAlive();
  }

  /** Kills the process with SIGKILL, as a lost host would, and waits until it is gone. */
  void kill() throws InterruptedException {
    process.destroyForcibly().waitFor();
  }

  /**
   * Stops the job with a savepoint in {@code savepoints} and waits for the process to end.
   *
   * @return the savepoint's path; null if the job had finished before it could be stopped
   */
  @Nullable
  String stopWithSavepoint(Path savepoints) throws IOException, InterruptedException {
    writeAtomically(stopRequest, savepoints.toUri().toString());
    awaitSuccess(STOP_LIMIT);
    String savepoint = Files.readString(savepointAnswer);
    return savepoint.isEmpty() ? null : savepoint;
  }

  private static void writeAtomically(Path file, String content) throws IOException {
    Path temp = file.resolveSibling(file.getFileName() + ".tmp");
    Files.writeString(temp, content);
    Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE);
  }

  /**
   * Waits for the process to end: true if its failure point halted it, false if its job finished;
   * fails with the process's output if the job failed or did not end in {@code timeout}.
   */
  boolean awaitHaltOrSuccess(Duration timeout) throws InterruptedException, IOException {
    if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      kill();
      throw new IllegalStateException("job did not end in " + timeout + ":\n" + output());
    }
    if (process.exitValue() == Failures.HALTED) {
      return true;
    }
    if (process.exitValue() != 0) {
      throw new IllegalStateException("job exited with " + process.exitValue() + ":\n" + output());
    }
    return false;
  }

  /** The failure point that halted the process. */
  Failures.Fired haltedAt() throws IOException {
    return Failures.readHaltRecord(haltRecordOf(stopRequest));
  }

  /** Waits for the job to finish; fails with the process's output if it did not succeed. */
  void awaitSuccess(Duration timeout) throws InterruptedException, IOException {
    if (awaitHaltOrSuccess(timeout)) {
      throw new IllegalStateException("job halted at " + haltedAt() + ":\n" + output());
    }
  }

  /** The last lines of the process's output. */
  String output() throws IOException {
    List<String> lines = Files.readAllLines(output);
    return String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
  }

  /**
   * Runs the job of the spec file {@code args[0]} to its end, or stops it with a savepoint once the
   * request file {@code args[1]} appears, or halts at the spec's failure point (exit status {@link
   * Failures#HALTED}); exits 1 if it fails.
   */
  public static void main(String[] args) throws Exception {
    Spec spec;
    try (ObjectInputStream in = new ObjectInputStream(Files.newInputStream(Path.of(args[0])))) {
      spec = (Spec) in.readObject();
    }
    Configuration conf = Restores.retainingCheckpointsIn(Path.of(spec.checkpoints()));
    if (spec.restoreFrom() != null) {
      // A local environment takes the restore from its configuration, not from the stream graph.
      conf.set(StateRecoveryOptions.SAVEPOINT_PATH, spec.restoreFrom());
    }
    if (spec.haltAt() != null) {
      Failures.armHalting(spec.haltAt(), haltRecordOf(Path.of(args[1])));
    }
    StreamExecutionEnvironment env = spec.job().environment(conf);
    spec.job().addDataStream(env, spec.changelog());
    try {
      JobClient client = Restores.submit(env, "mortar job process", spec.restoreFrom());
      CompletableFuture<JobExecutionResult> result = client.getJobExecutionResult();
      Path stopRequest = Path.of(args[1]);
      while (!result.isDone()) {
        if (Files.exists(stopRequest)) {
          String savepoint =
              Restores.stopWithSavepoint(client, Files.readString(stopRequest), STOP_LIMIT);
          writeAtomically(answerTo(stopRequest), savepoint == null ? "" : savepoint);
          break;
        }
        Thread.sleep(50);
      }
      result.get();
    } catch (Exception e) {
      e.printStackTrace();
      System.exit(1);
    }
    System.exit(0);
  }
}
