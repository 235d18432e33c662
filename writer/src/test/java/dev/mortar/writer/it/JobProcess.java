package dev.mortar.writer.it;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.annotation.Nullable;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * A test job in a process of its own, on its own embedded MiniCluster, as a user runs a job that
 * may lose its whole process (JobManager and TaskManager together, no high availability): the test
 * writes the {@link Spec} to a file and starts {@link #main} on it; it may kill the process with
 * SIGKILL, and start another one on the same table restored from a retained checkpoint.
 */
final class JobProcess {
  /** The job, its input, where it keeps its checkpoints and what it starts from (null: nothing). */
  record Spec(SinkJob job, Changelog changelog, String checkpoints, @Nullable String restoreFrom)
      implements Serializable {}

  private final Process process;
  private final Path output;

  private JobProcess(Process process, Path output) {
    this.process = process;
    this.output = output;
  }

  /** Starts {@code spec} in a new JVM; its files go to {@code folder} under {@code name}. */
  static JobProcess start(Spec spec, Path folder, String name) throws IOException {
    Path specFile = folder.resolve(name + ".spec");
    try (ObjectOutputStream out = new ObjectOutputStream(Files.newOutputStream(specFile))) {
      out.writeObject(spec);
    }
    return new JobProcess(
        JavaProcess.start(
            folder, name, List.of("-Xmx1g"), JobProcess.class, List.of(specFile.toString())),
        JavaProcess.output(folder, name));
  }

  boolean isAlive() {
    return process.isAlive();
  }

  /** Kills the process with SIGKILL, as a lost host would, and waits until it is gone. */
  void kill() throws InterruptedException {
    process.destroyForcibly().waitFor();
  }

  /** Waits for the job to finish; fails with the process's output if it did not succeed. */
  void awaitSuccess(Duration timeout) throws InterruptedException, IOException {
    if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      kill();
      throw new IllegalStateException("job did not finish in " + timeout + ":\n" + output());
    }
    if (process.exitValue() != 0) {
      throw new IllegalStateException("job exited with " + process.exitValue() + ":\n" + output());
    }
  }

  /** The last lines of the process's output. */
  String output() throws IOException {
    List<String> lines = Files.readAllLines(output);
    return String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
  }

  /** Runs the job of the spec file {@code args[0]} to its end; exits 1 if it fails. */
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
    StreamExecutionEnvironment env = spec.job().environment(conf);
    spec.job().addDataStream(env, spec.changelog());
    try {
      Restores.submit(env, "mortar job process", spec.restoreFrom()).getJobExecutionResult().get();
    } catch (Exception e) {
      e.printStackTrace();
      System.exit(1);
    }
    System.exit(0);
  }
}
