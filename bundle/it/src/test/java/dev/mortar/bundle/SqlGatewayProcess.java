package dev.mortar.bundle;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.mortar.writer.it.JavaProcess;
import dev.mortar.writer.it.StandaloneFlinkCluster;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A Flink SQL Gateway in its own JVM in front of a {@link StandaloneFlinkCluster}, started as
 * Flink's {@code sql-gateway.sh} starts it: the installation's configuration folder in {@code
 * FLINK_CONF_DIR}, so its sessions submit jobs to that cluster. Statements go through its REST API
 * (v1) as the SQL client's gateway mode sends them: open a session, execute a statement, fetch its
 * results page by page.
 */
final class SqlGatewayProcess implements AutoCloseable {
  private static final Duration STARTUP = Duration.ofSeconds(60);
  private static final Duration STATEMENT = Duration.ofSeconds(60);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Path folder;
  private final Process process;
  private final String endpoint;
  private final HttpClient http = HttpClient.newHttpClient();

  /** Starts a gateway on {@code classPath} and waits until its REST endpoint answers. */
  SqlGatewayProcess(Path folder, StandaloneFlinkCluster cluster, String classPath)
      throws IOException, InterruptedException {
    this.folder = Files.createDirectories(folder);
    int port = StandaloneFlinkCluster.freePort();
    this.endpoint = "http://127.0.0.1:" + port + "/v1";
    this.process =
        JavaProcess.start(
            folder,
            "sql-gateway",
            classPath,
            Map.of("FLINK_CONF_DIR", cluster.configDir().toString()),
            List.of("-Xmx512m"),
            "org.apache.flink.table.gateway.SqlGateway",
            List.of(
                "-Dsql-gateway.endpoint.rest.address=127.0.0.1",
                "-Dsql-gateway.endpoint.rest.bind-address=127.0.0.1",
                "-Dsql-gateway.endpoint.rest.port=" + port,
                "-Dexecution.target=remote"));
    awaitInfo();
  }

  /** Opens a session; its statements run one after another, as typed into a SQL client. */
  Session openSession() throws IOException {
    return new Session(post("/sessions", "{}").get("sessionHandle").asText());
  }

  /** The gateway's output, for a failure message. */
  String output() {
    try {
      return Files.readString(JavaProcess.output(folder, "sql-gateway"));
    } catch (IOException e) {
      return "(no output: " + e + ")";
    }
  }

  @Override
  public void close() throws InterruptedException {
    process.destroyForcibly().waitFor();
  }

  /** One gateway session. */
  final class Session {
    private final String handle;

    private Session(String handle) {
      this.handle = handle;
    }

    /**
     * Executes {@code statement} and returns the rows of its result, each a list of field values;
     * an INSERT's result is the id of the job it submitted. Fails with the gateway's error.
     */
    List<JsonNode> execute(String statement) throws IOException, InterruptedException {
      String operation =
          post(
                  "/sessions/" + handle + "/statements",
                  JSON.writeValueAsString(Map.of("statement", statement)))
              .get("operationHandle")
              .asText();
      String page = "/sessions/" + handle + "/operations/" + operation + "/result/0";
      List<JsonNode> rows = new ArrayList<>();
      long deadline = System.nanoTime() + STATEMENT.toNanos();
      while (page != null) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("no result in " + STATEMENT + " for: " + statement);
        }
        JsonNode result = get(page, statement);
        switch (result.get("resultType").asText()) {
          case "NOT_READY" -> Thread.sleep(100);
          case "EOS" -> page = null;
          default -> {
            result.at("/results/data").forEach(row -> rows.add(row.get("fields")));
            page =
                result.path("nextResultUri").isTextual()
                    ? result.get("nextResultUri").asText().replaceFirst("^/v1", "")
                    : null;
          }
        }
      }
      return rows;
    }
  }

  private JsonNode post(String path, String body) throws IOException {
    return send(
        HttpRequest.newBuilder(URI.create(endpoint + path))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build(),
        body);
  }

  private JsonNode get(String path, String statement) throws IOException {
    return send(HttpRequest.newBuilder(URI.create(endpoint + path)).GET().build(), statement);
  }

  /** Sends a request; a non-200 answer fails naming {@code what} and the gateway's errors. */
  private JsonNode send(HttpRequest request, String what) throws IOException {
    try {
      HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() != 200) {
        throw new IllegalStateException(
            request.method()
                + " "
                + request.uri()
                + " ("
                + what
                + "): "
                + response.statusCode()
                + " "
                + response.body());
      }
      return JSON.readTree(response.body());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(e);
    }
  }

  private void awaitInfo() throws InterruptedException {
    long deadline = System.nanoTime() + STARTUP.toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IllegalStateException("SQL Gateway exited:\n" + output());
      }
      try {
        get("/info", "info");
        return;
      } catch (IOException | IllegalStateException e) {
        Thread.sleep(200); // not listening yet
      }
    }
    throw new IllegalStateException("SQL Gateway did not answer in " + STARTUP + ":\n" + output());
  }
}
