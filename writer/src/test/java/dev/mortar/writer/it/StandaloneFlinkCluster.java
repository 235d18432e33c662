package dev.mortar.writer.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.JobManagerOptions;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.runtime.clusterframework.TaskExecutorProcessSpec;
import org.apache.flink.runtime.clusterframework.TaskExecutorProcessUtils;
import org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint;
import org.apache.flink.runtime.jobmanager.JobManagerProcessSpec;
import org.apache.flink.runtime.jobmanager.JobManagerProcessUtils;
import org.apache.flink.runtime.taskexecutor.TaskManagerRunner;
import org.apache.flink.runtime.util.config.memory.ProcessMemoryUtils;

/**
 * A Flink session cluster of real processes on this machine: one JobManager and TaskManagers, each
 * its own JVM started with the test's class path (Flink's jars, Mortar's classes and the test
 * classes) or a given one (an installation's jars), as Flink's {@code jobmanager.sh} and {@code
 * taskmanager.sh} would start them (memory flags and dynamic properties worked out from the
 * configuration as Flink's {@code BashJavaUtils} does). A TaskManager can be killed with SIGKILL
 * and another one started, to test recovery from the loss of a process. Each process writes its
 * output to a file in the cluster's folder.
 */
public final class StandaloneFlinkCluster implements AutoCloseable {
  private static final Duration STARTUP = Duration.ofSeconds(60);
  private static final Pattern TASK_MANAGERS = Pattern.compile("\"taskmanagers\"\\s*:\\s*(\\d+)");

  private final Path folder;
  private final Path configDir;
  private final String classPath;
  private final Configuration configuration;
  private final int restPort;
  private final Process jobManager;
  private final List<Process> taskManagers = new ArrayList<>();
  private final HttpClient http = HttpClient.newHttpClient();

  /** Starts a JobManager on the test's class path in {@code folder}. */
  StandaloneFlinkCluster(Path folder, int slotsPerTaskManager) throws IOException {
    this(folder, slotsPerTaskManager, System.getProperty("java.class.path"));
  }

  /**
   * Starts a JobManager on {@code classPath} in {@code folder} and waits until its REST endpoint
   * answers; TaskManagers run on the same class path.
   */
  public StandaloneFlinkCluster(Path folder, int slotsPerTaskManager, String classPath)
      throws IOException {
    this.folder = folder;
    this.configDir = Files.createDirectories(folder.resolve("conf"));
    this.classPath = classPath;
    this.restPort = freePort();
    configuration = new Configuration();
    configuration.set(JobManagerOptions.ADDRESS, "127.0.0.1");
    configuration.set(JobManagerOptions.BIND_HOST, "127.0.0.1");
    configuration.set(JobManagerOptions.PORT, freePort());
    // 768 MB in the four parts Flink would divide that total into (no method that divides it is
    // public in both Flink 1.20 and 2.x).
    configuration.set(JobManagerOptions.JVM_HEAP_MEMORY, MemorySize.parse("192m"));
    configuration.set(JobManagerOptions.OFF_HEAP_MEMORY, MemorySize.parse("128m"));
    configuration.set(JobManagerOptions.JVM_METASPACE, MemorySize.parse("256m"));
    configuration.set(JobManagerOptions.JVM_OVERHEAD_MIN, MemorySize.parse("192m"));
    configuration.set(JobManagerOptions.JVM_OVERHEAD_MAX, MemorySize.parse("192m"));
    configuration.set(RestOptions.ADDRESS, "127.0.0.1");
    configuration.set(RestOptions.BIND_ADDRESS, "127.0.0.1");
    configuration.set(RestOptions.PORT, restPort);
    configuration.set(TaskManagerOptions.HOST, "127.0.0.1");
    configuration.set(TaskManagerOptions.BIND_HOST, "127.0.0.1");
    configuration.set(TaskManagerOptions.NUM_TASK_SLOTS, slotsPerTaskManager);
    configuration.set(TaskManagerOptions.TOTAL_PROCESS_MEMORY, MemorySize.parse("1600m"));
    configuration.set(TaskManagerOptions.MANAGED_MEMORY_FRACTION, 0.2f);
    Files.writeString(
        configDir.resolve("config.yaml"),
        configuration.toMap().entrySet().stream()
            .map(option -> option.getKey() + ": " + option.getValue())
            .collect(Collectors.joining("\n", "", "\n")));
    JobManagerProcessSpec spec =
        new JobManagerProcessSpec(
            configuration.get(JobManagerOptions.JVM_HEAP_MEMORY),
            configuration.get(JobManagerOptions.OFF_HEAP_MEMORY),
            configuration.get(JobManagerOptions.JVM_METASPACE),
            configuration.get(JobManagerOptions.JVM_OVERHEAD_MAX));
    jobManager =
        start(
            "jobmanager",
            JobManagerProcessUtils.generateJvmParametersStr(spec, configuration),
            StandaloneSessionClusterEntrypoint.class,
            JobManagerProcessUtils.generateDynamicConfigsStr(spec),
            "--executionMode",
            "cluster");
    awaitTaskManagers(0);
  }

  /** The REST port a client submits jobs to. */
  public int restPort() {
    return restPort;
  }

  /** The folder holding the cluster's {@code config.yaml}, as an installation's {@code conf/}. */
  public Path configDir() {
    return configDir;
  }

  /** Starts one more TaskManager and waits until the JobManager counts it. */
  public void startTaskManager() throws IOException {
    TaskExecutorProcessSpec spec = TaskExecutorProcessUtils.processSpecFromConfig(configuration);
    taskManagers.add(
        start(
            "taskmanager-" + taskManagers.size(),
            ProcessMemoryUtils.generateJvmParametersStr(spec),
            TaskManagerRunner.class,
            TaskExecutorProcessUtils.generateDynamicConfigsStr(spec)));
    awaitTaskManagers(liveTaskManagers());
  }

  /**
   * Kills the newest live TaskManager with SIGKILL, as a crashed machine or an OOM killer would.
   */
  void killTaskManager() throws InterruptedException {
    Process victim = taskManagers.get(taskManagers.size() - 1);
    victim.destroyForcibly();
    victim.waitFor();
  }

  @Override
  public void close() throws InterruptedException {
    for (Process process : taskManagers) {
      process.destroyForcibly().waitFor();
    }
    jobManager.destroyForcibly().waitFor();
  }

  /** The output of the process started as {@code name}, for a failure message. */
  public String output(String name) {
    try {
      return Files.readString(JavaProcess.output(folder, name));
    } catch (IOException e) {
      return "(no output: " + e + ")";
    }
  }

  private int liveTaskManagers() {
    return (int) taskManagers.stream().filter(Process::isAlive).count();
  }

  private Process start(
      String name,
      String memoryFlags,
      Class<?> entryPoint,
      String dynamicProperties,
      String... args)
      throws IOException {
    List<String> mainArgs = new ArrayList<>(List.of("--configDir", configDir.toString()));
    mainArgs.addAll(Arrays.asList(dynamicProperties.trim().split("\\s+")));
    mainArgs.addAll(Arrays.asList(args));
    return JavaProcess.start(
        folder,
        name,
        classPath,
        Map.of(),
        Arrays.asList(memoryFlags.trim().split("\\s+")),
        entryPoint.getName(),
        mainArgs);
  }

  /** Waits until the JobManager's REST endpoint reports {@code count} TaskManagers. */
  private void awaitTaskManagers(int count) {
    long deadline = System.nanoTime() + STARTUP.toNanos();
    String last = "no answer";
    while (System.nanoTime() < deadline) {
      if (!jobManager.isAlive()) {
        throw new IllegalStateException("JobManager exited:\n" + output("jobmanager"));
      }
      try {
        last = restGet("/overview");
        Matcher matcher = TASK_MANAGERS.matcher(last);
        if (matcher.find() && Integer.parseInt(matcher.group(1)) == count) {
          return;
        }
      } catch (IOException e) {
        last = e.toString(); // not listening yet
      }
      sleep(200);
    }
    throw new IllegalStateException(
        "cluster did not report "
            + count
            + " TaskManagers in "
            + STARTUP
            + "; last answer: "
            + last);
  }

  /** The body of a 200 answer of the JobManager's REST API to {@code GET path}. */
  public String restGet(String path) throws IOException {
    try {
      HttpResponse<String> response =
          http.send(
              HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + restPort + path))
                  .timeout(Duration.ofSeconds(5))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() != 200) {
        throw new IOException("GET " + path + ": " + response.statusCode() + " " + response.body());
      }
      return response.body();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(e);
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** A port no process on this machine listens on now. */
  public static int freePort() {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
