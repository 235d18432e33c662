package dev.mortar.bundle;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A Flink release a bundle is run on: its installation, as bundle/installation/ resolves it, and
 * the {@link FlinkLine} whose bundle a user of that release deploys. Flink 2.0 and 2.1 have no
 * bundle of their own: the 2.2 bundle runs on them. The installation's class paths are the files
 * bundle/installation/ writes: {@code lib.classpath} (Flink's lib/ and the Hadoop client) and
 * {@code gateway.classpath} (the SQL Gateway of opt/).
 */
enum FlinkRelease {
  FLINK_1_20("1.20", FlinkLine.FLINK_1_20),
  FLINK_2_0("2.0", FlinkLine.FLINK_2_2),
  FLINK_2_1("2.1", FlinkLine.FLINK_2_2),
  FLINK_2_2("2.2", FlinkLine.FLINK_2_2),
  FLINK_2_3("2.3", FlinkLine.FLINK_2_3);

  private final String version;
  private final FlinkLine bundleLine;

  FlinkRelease(String version, FlinkLine bundleLine) {
    this.version = version;
    this.bundleLine = bundleLine;
  }

  /** The bundle a user of this release deploys. */
  Path bundleJar() {
    return bundleLine.bundleJar();
  }

  /** The JobManager's and TaskManagers' class path: Flink's lib/ and the Hadoop client. */
  String installationClassPath() {
    return readClassPath("lib.classpath");
  }

  /** What the SQL Gateway adds to the installation's class path. */
  String gatewayClassPath() {
    return readClassPath("gateway.classpath");
  }

  @Override
  public String toString() {
    return "Flink " + version + " with " + bundleLine;
  }

  private String readClassPath(String name) {
    Path file = Path.of(BuildProperties.get("mortar.flink-" + version + ".installation"), name);
    try {
      return Files.readString(file).strip();
    } catch (IOException e) {
      throw new UncheckedIOException(
          "class path file " + file + " of Flink " + version + " (built by bundle/installation/)",
          e);
    }
  }
}
