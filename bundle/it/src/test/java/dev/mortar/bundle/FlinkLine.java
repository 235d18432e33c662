package dev.mortar.bundle;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A Flink line Mortar ships a bundle for: the bundle jar and the installation it is tested on, as
 * the build passes them (bundle/it/pom.xml). The installation's class paths are the files that
 * bundle/installation/ writes: {@code lib.classpath} (Flink's lib/ and the Hadoop client) and
 * {@code gateway.classpath} (the SQL Gateway of opt/).
 */
enum FlinkLine {
  FLINK_1_20("1.20"),
  FLINK_2_2("2.2"),
  FLINK_2_3("2.3");

  private final String version;

  FlinkLine(String version) {
    this.version = version;
  }

  /** The bundle jar for this line. */
  Path bundleJar() {
    return Path.of(property("bundle"));
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
    return "Flink " + version;
  }

  private String readClassPath(String name) {
    Path file = Path.of(property("installation"), name);
    try {
      return Files.readString(file).strip();
    } catch (IOException e) {
      throw new UncheckedIOException(
          "class path file " + file + " of " + this + " (built by bundle/installation/)", e);
    }
  }

  private String property(String name) {
    String key = "mortar.flink-" + version + "." + name;
    String value = System.getProperty(key);
    if (value == null) {
      throw new IllegalStateException("system property " + key + " is not set (bundle/it/pom.xml)");
    }
    return value;
  }
}
