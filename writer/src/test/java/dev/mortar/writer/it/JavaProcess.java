package dev.mortar.writer.it;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Starts a JVM on this test's class path and with its {@code --add-opens}/{@code --add-exports}
 * flags (which Flink needs on JDK 17), its output and errors going to {@code <folder>/<name>.out}.
 */
final class JavaProcess {
  private JavaProcess() {}

  static Process start(
      Path folder, String name, List<String> jvmFlags, Class<?> mainClass, List<String> args)
      throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmFlags);
    ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
        .filter(flag -> flag.startsWith("--add-opens") || flag.startsWith("--add-exports"))
        .forEach(command::add);
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(mainClass.getName());
    command.addAll(args);
    return new ProcessBuilder(command)
        .redirectErrorStream(true)
        .redirectOutput(output(folder, name).toFile())
        .start();
  }

  /** The file the process started as {@code name} in {@code folder} writes its output to. */
  static Path output(Path folder, String name) {
    return folder.resolve(name + ".out");
  }
}
