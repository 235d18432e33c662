package dev.mortar.flink;

import static org.assertj.core.api.Assertions.assertThat;

import dev.mortar.buffer.BucketBuffer;
import dev.mortar.logformat.LogFileWriter;
import dev.mortar.serde.MortarRow;
import dev.mortar.writer.MortarSink;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Executable;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.FieldVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * The shared modules' jars, compiled once against the default Flink line, link against the Flink on
 * this class path in every code path, not only in those the tests run: each Flink class their
 * bytecode names exists here, each method and field they use (through a Flink class or a Mortar
 * class that inherits it) exists with that descriptor and is visible to them, and no concrete
 * Mortar class leaves an abstract method of its Flink supertypes unimplemented (which would fail
 * only when called).
 */
class FlinkLinkageTest {
  private static final String FLINK = "org/apache/flink/";

  @Test
  void sharedModulesLinkAgainstThisFlink() throws Exception {
    Set<String> missing = new TreeSet<>();
    int checked = 0;
    for (Class<?> module :
        List.of(MortarRow.class, BucketBuffer.class, LogFileWriter.class, MortarSink.class)) {
      for (String className : classesInJarOf(module)) {
        References references = referencesOf(className);
        for (String type : references.types) {
          checked++;
          if (load(type) == null) {
            missing.add(className + " -> class " + type);
          }
        }
        Class<?> referrer = load(className);
        if (referrer == null) {
          missing.add(className + " does not load");
          continue;
        }
        for (String[] member : references.methods) {
          checked++;
          if (!hasMethod(referrer, load(member[0]), member[1], member[2])) {
            missing.add(className + " -> " + member[0] + "." + member[1] + member[2]);
          }
        }
        for (String[] member : references.fields) {
          checked++;
          if (!hasField(referrer, load(member[0]), member[1], member[2])) {
            missing.add(className + " -> field " + member[0] + "." + member[1]);
          }
        }
        missing.addAll(unimplementedFlinkMethods(referrer));
      }
    }
    assertThat(checked).as("Flink references checked").isGreaterThan(1_000);
    assertThat(missing).as("references the Flink on the class path does not have").isEmpty();
  }

  /** The Flink classes, methods and fields one class's bytecode names. */
  private static final class References {
    final Set<String> types = new HashSet<>();
    final List<String[]> methods = new ArrayList<>();
    final List<String[]> fields = new ArrayList<>();

    void type(String internalName) {
      if (internalName.startsWith(FLINK)) {
        types.add(internalName);
      }
    }

    void descriptor(String descriptor) {
      Type type = Type.getType(descriptor);
      if (type.getSort() == Type.METHOD) {
        descriptor(type.getReturnType().getDescriptor());
        Arrays.stream(type.getArgumentTypes()).forEach(arg -> descriptor(arg.getDescriptor()));
      } else if (type.getSort() == Type.ARRAY) {
        descriptor(type.getElementType().getDescriptor());
      } else if (type.getSort() == Type.OBJECT) {
        type(type.getInternalName());
      }
    }
  }

  /**
   * Whether a member reference through {@code owner} is checked: javac names the class a member is
   * used through, so Mortar's own classes count too (an inherited Flink method or field).
   */
  private static boolean linked(String owner) {
    return owner.startsWith(FLINK) || owner.startsWith("dev/mortar/");
  }

  private static References referencesOf(String className) throws IOException {
    References references = new References();
    MethodVisitor code =
        new MethodVisitor(Opcodes.ASM9) {
          @Override
          public void visitMethodInsn(
              int opcode, String owner, String name, String descriptor, boolean isInterface) {
            if (linked(owner)) {
              references.methods.add(new String[] {owner, name, descriptor});
            }
            references.descriptor(descriptor);
          }

          @Override
          public void visitFieldInsn(int opcode, String owner, String name, String descriptor) {
            if (linked(owner)) {
              references.fields.add(new String[] {owner, name, descriptor});
            }
            references.descriptor(descriptor);
          }

          @Override
          public void visitTypeInsn(int opcode, String type) {
            references.descriptor(type.startsWith("[") ? type : "L" + type + ";");
          }
        };
    ClassVisitor visitor =
        new ClassVisitor(Opcodes.ASM9) {
          @Override
          public void visit(
              int version,
              int access,
              String name,
              String signature,
              String superName,
              String[] interfaces) {
            if (superName != null) {
              references.type(superName);
            }
            Arrays.stream(interfaces).forEach(references::type);
          }

          @Override
          public FieldVisitor visitField(
              int access, String name, String descriptor, String signature, Object value) {
            references.descriptor(descriptor);
            return null;
          }

          @Override
          public MethodVisitor visitMethod(
              int access, String name, String descriptor, String signature, String[] exceptions) {
            references.descriptor(descriptor);
            return code;
          }
        };
    try (InputStream in =
        FlinkLinkageTest.class.getClassLoader().getResourceAsStream(className + ".class")) {
      new ClassReader(in).accept(visitor, ClassReader.SKIP_FRAMES);
    }
    return references;
  }

  /**
   * Whether {@code owner} or one of its supertypes declares the method, visible to the referrer.
   */
  private static boolean hasMethod(
      Class<?> referrer, Class<?> owner, String name, String descriptor) {
    return supertypes(owner).stream()
        .flatMap(type -> Arrays.stream(members(type)))
        .anyMatch(
            member ->
                (name.equals("<init>")
                        ? member instanceof java.lang.reflect.Constructor
                            && member.getDeclaringClass() == owner
                        : member.getName().equals(name))
                    && descriptorOf(member).equals(descriptor)
                    && visible(referrer, member.getDeclaringClass(), member.getModifiers()));
  }

  private static boolean hasField(
      Class<?> referrer, Class<?> owner, String name, String descriptor) {
    return supertypes(owner).stream()
        .flatMap(type -> Arrays.stream(type.getDeclaredFields()))
        .anyMatch(
            field ->
                field.getName().equals(name)
                    && Type.getDescriptor(field.getType()).equals(descriptor)
                    && visible(referrer, field.getDeclaringClass(), field.getModifiers()));
  }

  /** Java's access rule for a member of {@code declarer} used in {@code referrer}. */
  private static boolean visible(Class<?> referrer, Class<?> declarer, int modifiers) {
    if (Modifier.isPublic(modifiers)) {
      return true;
    }
    if (Modifier.isPrivate(modifiers)) {
      return referrer.getNestHost() == declarer.getNestHost();
    }
    boolean samePackage = referrer.getPackageName().equals(declarer.getPackageName());
    return samePackage || (Modifier.isProtected(modifiers) && declarer.isAssignableFrom(referrer));
  }

  /** The abstract methods of {@code type}'s Flink supertypes that a concrete type leaves open. */
  private static List<String> unimplementedFlinkMethods(Class<?> type) {
    List<String> open = new ArrayList<>();
    if (type == null || type.isInterface() || Modifier.isAbstract(type.getModifiers())) {
      return open;
    }
    for (Class<?> supertype : supertypes(type)) {
      if (!supertype.getName().startsWith("org.apache.flink.")) {
        continue;
      }
      for (Method method : supertype.getDeclaredMethods()) {
        if (Modifier.isAbstract(method.getModifiers()) && !implemented(type, method)) {
          open.add(type.getName() + " leaves " + supertype.getName() + "." + method.getName());
        }
      }
    }
    return open;
  }

  private static boolean implemented(Class<?> type, Method method) {
    return supertypes(type).stream()
        .flatMap(candidate -> Arrays.stream(candidate.getDeclaredMethods()))
        .anyMatch(
            candidate ->
                !Modifier.isAbstract(candidate.getModifiers())
                    && candidate.getName().equals(method.getName())
                    && Arrays.equals(candidate.getParameterTypes(), method.getParameterTypes())
                    && method.getReturnType().isAssignableFrom(candidate.getReturnType()));
  }

  /** {@code type} and all its superclasses and interfaces; empty for a missing type. */
  private static List<Class<?>> supertypes(Class<?> type) {
    List<Class<?>> all = new ArrayList<>();
    Deque<Class<?>> pending = new ArrayDeque<>();
    if (type != null) {
      pending.add(type);
    }
    while (!pending.isEmpty()) {
      Class<?> next = pending.poll();
      if (!all.contains(next)) {
        all.add(next);
        if (next.getSuperclass() != null) {
          pending.add(next.getSuperclass());
        }
        pending.addAll(Arrays.asList(next.getInterfaces()));
      }
    }
    return all;
  }

  private static Executable[] members(Class<?> type) {
    List<Executable> members = new ArrayList<>(Arrays.asList(type.getDeclaredMethods()));
    members.addAll(Arrays.asList(type.getDeclaredConstructors()));
    return members.toArray(new Executable[0]);
  }

  private static String descriptorOf(Executable member) {
    return member instanceof Method method
        ? Type.getMethodDescriptor(method)
        : Type.getConstructorDescriptor((java.lang.reflect.Constructor<?>) member);
  }

  private static Class<?> load(String internalName) {
    try {
      return Class.forName(
          internalName.replace('/', '.'), false, FlinkLinkageTest.class.getClassLoader());
    } catch (ClassNotFoundException | LinkageError e) {
      return null;
    }
  }

  private static List<String> classesInJarOf(Class<?> module)
      throws IOException, URISyntaxException {
    List<String> classes = new ArrayList<>();
    try (JarFile jar =
        new JarFile(
            new java.io.File(module.getProtectionDomain().getCodeSource().getLocation().toURI()))) {
      for (JarEntry entry : jar.stream().toList()) {
        if (entry.getName().startsWith("dev/mortar/") && entry.getName().endsWith(".class")) {
          classes.add(entry.getName().substring(0, entry.getName().length() - ".class".length()));
        }
      }
    }
    return classes;
  }
}
