package dev.mortar.writer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mortar.buffer.PagePool;
import dev.mortar.logformat.LogFileWriter;
import dev.mortar.serde.MortarRow;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The dependency arrows of Mortar's main code point one way, read from the compiled classes (every
 * class a class file names in its constant pool: types, fields, method signatures):
 *
 * <ul>
 *   <li>no package cycle inside {@code dev.mortar.writer};
 *   <li>only {@code sql} uses the root package (the public API); internal packages sit below it;
 *   <li>serde, buffer and logformat use nothing of the writer nor of each other, except buffer's
 *       use of {@code dev.mortar.serde.Operation}.
 * </ul>
 */
class ArchitectureTest {
  private static final String WRITER = "dev/mortar/writer";
  private static final Pattern MORTAR_CLASS =
      Pattern.compile("dev/mortar/((?:[a-z0-9_]+/)*[a-z0-9_]+)/([A-Z][\\w$]*)");

  @Test
  void writerPackagesHaveNoCycle() throws IOException {
    Map<String, Set<String>> uses = packageUses(MortarSink.class, WRITER);
    List<String> cycles = new ArrayList<>();
    uses.forEach(
        (from, targets) -> {
          for (String to : targets) {
            List<String> back = path(uses, to, from);
            if (back != null) {
              cycles.add(from + " -> " + String.join(" -> ", back));
            }
          }
        });
    assertThat(cycles).as("package cycles in the writer's main code").isEmpty();
  }

  @Test
  void onlyTheSqlConnectorUsesTheRootPackage() throws IOException {
    Map<String, Set<String>> uses = packageUses(MortarSink.class, WRITER);
    List<String> users = new ArrayList<>();
    uses.forEach(
        (from, targets) -> {
          if (targets.contains(WRITER) && !from.equals(WRITER + "/sql")) {
            users.add(from);
          }
        });
    assertThat(users).as("internal packages that use the root package").isEmpty();
  }

  @Test
  void lowerModulesUseNothingOfTheWriterNorOfEachOther() throws IOException {
    assertThat(foreignUses(MortarRow.class, "dev/mortar/serde")).isEmpty();
    assertThat(foreignUses(PagePool.class, "dev/mortar/buffer"))
        .allMatch(use -> use.endsWith(" uses dev/mortar/serde/Operation"), "only serde.Operation");
    assertThat(foreignUses(LogFileWriter.class, "dev/mortar/logformat")).isEmpty();
  }

  /** Each package under {@code root} of the module of {@code anchor}, with the packages it uses. */
  private static Map<String, Set<String>> packageUses(Class<?> anchor, String root)
      throws IOException {
    Map<String, Set<String>> uses = new TreeMap<>();
    forEachClass(
        anchor,
        (name, referenced) -> {
          String from = packageOf(name);
          Set<String> targets = uses.computeIfAbsent(from, p -> new TreeSet<>());
          for (String to : referenced) {
            String target = packageOf(to);
            if ((target.equals(root) || target.startsWith(root + "/")) && !target.equals(from)) {
              targets.add(target);
            }
          }
        });
    return uses;
  }

  /** "class uses class" for each Mortar class outside {@code root} that a class of it names. */
  private static List<String> foreignUses(Class<?> anchor, String root) throws IOException {
    List<String> foreign = new ArrayList<>();
    forEachClass(
        anchor,
        (name, referenced) -> {
          for (String to : referenced) {
            if (!to.startsWith(root + "/")) {
              foreign.add(name + " uses " + to);
            }
          }
        });
    return foreign;
  }

  /** A path {@code from -> ... -> to} over {@code uses}, or null when there is none. */
  private static List<String> path(Map<String, Set<String>> uses, String from, String to) {
    Map<String, String> reachedFrom = new TreeMap<>();
    Deque<String> queue = new ArrayDeque<>(List.of(from));
    reachedFrom.put(from, from);
    while (!queue.isEmpty()) {
      String at = queue.removeFirst();
      if (at.equals(to)) {
        List<String> path = new ArrayList<>();
        for (String step = to; !step.equals(from); step = reachedFrom.get(step)) {
          path.add(0, step);
        }
        path.add(0, from);
        return path;
      }
      for (String next : uses.getOrDefault(at, Set.of())) {
        if (reachedFrom.putIfAbsent(next, at) == null) {
          queue.addLast(next);
        }
      }
    }
    return null;
  }

  private static String packageOf(String className) {
    return className.substring(0, className.lastIndexOf('/'));
  }

  private interface ClassVisitor {
    void visit(String className, Set<String> referencedMortarClasses);
  }

  /** Visits every class of the directory or jar that holds {@code anchor}. */
  private static void forEachClass(Class<?> anchor, ClassVisitor visitor) throws IOException {
    URI location;
    try {
      location = anchor.getProtectionDomain().getCodeSource().getLocation().toURI();
    } catch (java.net.URISyntaxException e) {
      throw new IOException(e);
    }
    Path root = Path.of(location);
    try (FileSystem jar =
        Files.isDirectory(root) ? null : FileSystems.newFileSystem(root, (ClassLoader) null)) {
      Path classes = jar == null ? root : jar.getPath("/");
      try (Stream<Path> files = Files.walk(classes)) {
        for (Path file : (Iterable<Path>) files::iterator) {
          if (file.toString().endsWith(".class") && !file.endsWith("module-info.class")) {
            String name = classes.relativize(file).toString().replace('\\', '/');
            name = name.substring(0, name.length() - ".class".length());
            try (InputStream in = Files.newInputStream(file)) {
              visitor.visit(name, mortarClassesNamedIn(in, name));
            }
          }
        }
      }
    }
  }

  /**
   * The Mortar classes other than {@code self} (and its nested classes) that a class file names:
   * every internal name or descriptor among its constant pool's strings.
   */
  private static Set<String> mortarClassesNamedIn(InputStream classFile, String self)
      throws IOException {
    DataInputStream in = new DataInputStream(classFile);
    in.readInt(); // magic
    in.readUnsignedShort(); // minor version
    in.readUnsignedShort(); // major version
    int count = in.readUnsignedShort();
    Set<String> named = new TreeSet<>();
    String outer = self.contains("$") ? self.substring(0, self.indexOf('$')) : self;
    for (int i = 1; i < count; i++) {
      int tag = in.readUnsignedByte();
      switch (tag) {
        case 1 -> {
          Matcher matcher = MORTAR_CLASS.matcher(in.readUTF());
          while (matcher.find()) {
            String name = matcher.group();
            String top = name.contains("$") ? name.substring(0, name.indexOf('$')) : name;
            if (!top.equals(outer)) {
              named.add(top);
            }
          }
        }
        case 7, 8, 16, 19, 20 -> in.skipBytes(2);
        case 15 -> in.skipBytes(3);
        case 3, 4, 9, 10, 11, 12, 17, 18 -> in.skipBytes(4);
        case 5, 6 -> {
          in.skipBytes(8);
          i++; // a long or double takes two entries
        }
        default -> throw new IOException("unknown constant pool tag " + tag + " in " + self);
      }
    }
    return named;
  }
}
