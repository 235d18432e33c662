package dev.mortar.bundle;

import java.nio.file.Path;

/**
 * A Flink line Mortar ships a bundle for, with the bundle jar as the build passes it
 * (bundle/it/pom.xml). The Flink releases the bundles are run on are {@link FlinkRelease}.
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
    return Path.of(BuildProperties.get("mortar.flink-" + version + ".bundle"));
  }

  @Override
  public String toString() {
    return "the Flink " + version + " bundle";
  }
}
