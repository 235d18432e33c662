package dev.mortar.bundle;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Each Flink line's bundle jar as a user drops it into {@code flink/lib}: besides Mortar's own
 * classes it holds its libraries relocated under {@code dev/mortar/shaded/}, so none can clash with
 * another copy on the cluster's class path. The one exception is zstd-jni, whose native code is
 * bound to its package name. No class may still refer to an unrelocated Avro, Parquet or Jackson
 * class, in its code or by a name it loads by reflection (it would bind to whatever copy the
 * cluster has), and the SQL connector is registered through the SPI file.
 */
class BundleContentsTest {
  private static final String SHADED = "dev/mortar/shaded/";
  private static final List<String> CLASHING =
      List.of("org/apache/avro/", "org/apache/parquet/", "com/fasterxml/jackson/");
  private static final List<String> OWN_PACKAGES = List.of("dev/mortar/", "com/github/luben/zstd/");
  private static final String FACTORY_SPI =
      "META-INF/services/org.apache.flink.table.factories.Factory";

  @ParameterizedTest
  @EnumSource(FlinkLine.class)
  void everyClassIsMortarsOrRelocated(FlinkLine line) throws IOException {
    Path bundle = line.bundleJar();
    assertThat(classNames(bundle))
        .as("classes outside %s in %s", OWN_PACKAGES, bundle)
        .allMatch(name -> OWN_PACKAGES.stream().anyMatch(name::startsWith));
  }

  @ParameterizedTest
  @EnumSource(FlinkLine.class)
  void avroParquetAndJacksonAreInsideRelocated(FlinkLine line) throws IOException {
    Set<String> names = classNames(line.bundleJar());
    for (String library : CLASHING) {
      assertThat(names).as("unrelocated %s classes", library).noneMatch(n -> n.startsWith(library));
      assertThat(names)
          .as("relocated %s classes", library)
          .anyMatch(n -> n.startsWith(SHADED + library));
    }
  }

  @ParameterizedTest
  @EnumSource(FlinkLine.class)
  void noClassRefersToAnUnrelocatedAvroParquetOrJacksonClass(FlinkLine line) throws IOException {
    Path bundle = line.bundleJar();
    List<String> references = new ArrayList<>();
    try (JarFile jar = new JarFile(bundle.toFile())) {
      for (JarEntry entry : jar.stream().filter(e -> e.getName().endsWith(".class")).toList()) {
        for (String text : ClassConstants.texts(jar.getInputStream(entry))) {
          for (String library : CLASHING) {
            if (refersUnrelocated(text, library) || text.startsWith(library.replace('/', '.'))) {
              references.add(entry.getName() + " -> " + text);
            }
          }
        }
      }
    }
    assertThat(references).as("references to unrelocated classes in %s", bundle).isEmpty();
  }

  @ParameterizedTest
  @EnumSource(FlinkLine.class)
  void sqlConnectorIsRegisteredThroughTheSpiFile(FlinkLine line) throws IOException {
    Path bundle = line.bundleJar();
    try (JarFile jar = new JarFile(bundle.toFile())) {
      JarEntry spi = jar.getJarEntry(FACTORY_SPI);
      assertThat(spi).as("%s in %s", FACTORY_SPI, bundle).isNotNull();
      List<String> factories =
          new String(jar.getInputStream(spi).readAllBytes(), UTF_8)
              .lines()
              .map(String::strip)
              .filter(entry -> !entry.isEmpty() && !entry.startsWith("#"))
              .toList();
      assertThat(factories).containsExactly("dev.mortar.writer.sql.MortarTableFactory");
      assertThat(jar.getJarEntry("dev/mortar/writer/sql/MortarTableFactory.class")).isNotNull();
    }
  }

  /**
   * Whether a class file's text names a class of {@code library} (internal form, as in a class
   * reference or a descriptor) other than inside a relocated name: one whose identifier (the run of
   * name characters around it) holds {@code dev/mortar/shaded/} before it.
   */
  private static boolean refersUnrelocated(String text, String library) {
    for (int at = text.indexOf(library); at >= 0; at = text.indexOf(library, at + 1)) {
      int start = at;
      while (start > 0 && isNameChar(text.charAt(start - 1))) {
        start--;
      }
      if (!text.substring(start, at).contains(SHADED)) {
        return true;
      }
    }
    return false;
  }

  private static boolean isNameChar(char c) {
    return Character.isLetterOrDigit(c) || c == '/' || c == '_' || c == '$';
  }

  private static Set<String> classNames(Path bundle) throws IOException {
    try (JarFile jar = new JarFile(bundle.toFile())) {
      return jar.stream()
          .map(JarEntry::getName)
          .filter(name -> name.endsWith(".class"))
          .collect(Collectors.toSet());
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }
}
