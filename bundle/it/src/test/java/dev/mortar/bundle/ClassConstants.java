package dev.mortar.bundle;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * The text constants of a class file (JVMS §4.4): every {@code CONSTANT_Utf8} of its constant pool,
 * which holds the names of the classes it refers to, its field and method descriptors and its
 * string literals.
 */
final class ClassConstants {
  private static final int MAGIC = 0xCAFEBABE;

  private ClassConstants() {}

  static List<String> texts(InputStream classFile) throws IOException {
    DataInputStream in = new DataInputStream(classFile);
    if (in.readInt() != MAGIC) {
      throw new IOException("not a class file: no magic number 0xCAFEBABE");
    }
    in.readUnsignedShort(); // minor version
    in.readUnsignedShort(); // major version
    int count = in.readUnsignedShort();
    List<String> texts = new ArrayList<>();
    for (int index = 1; index < count; index++) {
      int tag = in.readUnsignedByte();
      switch (tag) {
        case 1 -> texts.add(in.readUTF());
        case 7, 8, 16, 19, 20 -> in.skipNBytes(2); // Class, String, MethodType, Module, Package
        case 15 -> in.skipNBytes(3); // MethodHandle
        case 3, 4, 9, 10, 11, 12, 17, 18 -> in.skipNBytes(4); // Integer ... InvokeDynamic
        case 5, 6 -> { // Long, Double: two slots
          in.skipNBytes(8);
          index++;
        }
        default -> throw new IOException("constant pool entry " + index + ": unknown tag " + tag);
      }
    }
    return texts;
  }
}
