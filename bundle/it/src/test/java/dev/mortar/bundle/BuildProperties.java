package dev.mortar.bundle;

/**
 * The system properties bundle/it/pom.xml passes the tests: where the bundles and installations
 * are.
 */
final class BuildProperties {
  private BuildProperties() {}

  static String get(String key) {
    String value = System.getProperty(key);
    if (value == null) {
      throw new IllegalStateException("system property " + key + " is not set (bundle/it/pom.xml)");
    }
    return value;
  }
}
