package dev.mortar.writer.it;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Starts a JVM with this test's {@code --add-opens}/{@code --add-exports} flags (which Flink needs
 * on JDK 17), on this test's class path or a given one, its output and errors going to {@code
 * <folder>/<name>.out}.
 */
public final class JavaProcess {
  private JavaProcess() {}

  static Process start(
      Path folder, String name, List<String> jvmFlags, Class<?> mainClass, List<String> args)
      throws IOException {
    return start(
        folder,
        name,
        System.getProperty("java.class.path"),
        Map.of(),
        jvmFlags,
        mainClass.getName(),
        args);
  }

  /**
   * Starts {@code mainClass} on {@code classPath} with {@code environment} added to this process's
   * environment.
   */
  public static Process start(
      Path folder,
      String name,
      String classPath,
      Map<String, String> environment,
      List<String> jvmFlags,
      String mainClass,
      List<String> args)
      throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmFlags);
    ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
        .filter(flag -> flag.startsWith("--add-opens") || flag.startsWith("--add-exports"))
        .forEach(command::add);
    command.add("-cp");
    command.add(classPath);
    command.add(mainClass);
    command.addAll(args);
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(output(folder, name).toFile());
    builder.environment().putAll(environment);
    return builder.start();
  }

  /** The file the process started as {@code name} in {@code folder} writes its output to. */
  public static Path output(Path folder, String name) {
    return folder.resolve(name + ".out");
  }
}
