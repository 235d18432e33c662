package dev.mortar.benchmark.e2e;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Starts {@link RunOne} for one {@link RunSpec} in a fresh JVM with the harness's heap and Flink's
 * {@code --add-opens} list, and reads back its JSON line. Every child gets the same JVM flags.
 */
final class ChildJvm {
  /** The {@code --add-opens} list Flink itself uses on Java 17. */
  static final List<String> FLINK_OPENS =
      List.of(
          "java.lang",
          "java.net",
          "java.io",
          "java.nio",
          "sun.nio.ch",
          "java.lang.reflect",
          "java.text",
          "java.time",
          "java.util",
          "java.util.concurrent",
          "java.util.concurrent.atomic",
          "java.util.concurrent.locks");

  /** What one child run produced: its figures, or why it failed. */
  record Outcome(RunSpec spec, RunFigures figures, String failure, Path log) {}

  private final String heap;
  private final List<String> extraJvmArgs;
  private final long timeoutSeconds;
  private final Path logDir;

  ChildJvm(String heap, List<String> extraJvmArgs, long timeoutSeconds, Path logDir) {
    this.heap = heap;
    this.extraJvmArgs = extraJvmArgs;
    this.timeoutSeconds = timeoutSeconds;
    this.logDir = logDir;
  }

  /** The JVM flags every child gets (same heap, same GC, same opens). */
  List<String> jvmFlags() {
    List<String> flags = new ArrayList<>();
    flags.add("-Xms" + heap);
    flags.add("-Xmx" + heap);
    for (String pkg : FLINK_OPENS) {
      flags.add("--add-opens=java.base/" + pkg + "=ALL-UNNAMED");
    }
    flags.addAll(extraJvmArgs);
    return flags;
  }

  /**
   * Runs {@code spec} in a child JVM whose tables go to a directory of its own under the spec's
   * work directory, deleted afterwards: a child killed at its timeout cannot delete them itself.
   */
  Outcome run(RunSpec spec) throws IOException, InterruptedException {
    Files.createDirectories(logDir);
    Path runDir =
        Files.createTempDirectory(Files.createDirectories(spec.workDir()), "mortar-e2e-run-");
    try {
      return runIn(spec.inWorkDir(runDir));
    } finally {
      TableFiles.deleteRecursively(runDir);
    }
  }

  private Outcome runIn(RunSpec spec) throws IOException, InterruptedException {
    String name =
        (spec.variant() + " " + spec.system().flagName() + " r" + spec.repeat())
            .replaceAll("[^A-Za-z0-9=.-]+", "_");
    Path log = logDir.resolve(name + ".log");
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmFlags());
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(RunOne.class.getName());
    command.addAll(spec.toArgs());
    Process process =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor();
      return new Outcome(spec, null, "timed out after " + timeoutSeconds + " s", log);
    }
    List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
    for (String line : lines) {
      if (line.startsWith(RunOne.RESULT_PREFIX)) {
        RunFigures figures =
            Json.LINE.readValue(line.substring(RunOne.RESULT_PREFIX.length()), RunFigures.class);
        return new Outcome(spec, figures, null, log);
      }
    }
    return new Outcome(
        spec, null, "exit code " + process.exitValue() + ", no figures: " + lastError(lines), log);
  }

  /** The most telling line of a failed child's output: the last exception message. */
  private static String lastError(List<String> lines) {
    String found = lines.isEmpty() ? "(no output)" : lines.get(lines.size() - 1);
    for (String line : lines) {
      if (line.contains("Exception") || line.contains("Error:")) {
        found = line.trim();
      }
    }
    return found.length() > 300 ? found.substring(0, 300) + "…" : found;
  }
}
