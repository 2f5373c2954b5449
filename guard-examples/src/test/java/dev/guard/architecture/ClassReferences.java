package dev.guard.architecture;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * What one class file refers to, read from its constant pool: every method it calls or names (a
 * method reference {@code System::nanoTime} included), every class it names, and every descriptor
 * or signature string (where field, parameter and return types appear). Reading compiled classes
 * rather than source sees through imports, static imports, fully qualified names and method
 * references alike.
 */
final class ClassReferences {

  /** One method a class refers to: owner and name in internal form, and its descriptor. */
  record Method(String owner, String name, String descriptor) {

    /** The parameter part of the descriptor, without the parentheses. */
    String parameters() {
      return descriptor.substring(1, descriptor.indexOf(')'));
    }

    @Override
    public String toString() {
      return owner.replace('/', '.') + "." + name + descriptor;
    }
  }

  final String className;
  final List<Method> methods;
  final List<String> classes;
  final List<String> strings;

  private ClassReferences(String className, List<Method> methods, List<String> classes,
      List<String> strings) {
    this.className = className;
    this.methods = methods;
    this.classes = classes;
    this.strings = strings;
  }

  /** Reads a class file's constant pool (JVMS §4.4). */
  static ClassReferences read(byte[] classFile) throws IOException {
    DataInputStream in = new DataInputStream(new ByteArrayInputStream(classFile));
    if (in.readInt() != 0xCAFEBABE) {
      throw new IOException("not a class file");
    }
    in.readUnsignedShort(); // minor
    in.readUnsignedShort(); // major
    int count = in.readUnsignedShort();
    String[] utf8 = new String[count];
    int[] first = new int[count]; // Class: name; refs: class; NameAndType: name
    int[] second = new int[count]; // refs: name-and-type; NameAndType: descriptor
    int[] tag = new int[count];
    for (int i = 1; i < count; i++) {
      tag[i] = in.readUnsignedByte();
      switch (tag[i]) {
        case 1 -> utf8[i] = in.readUTF();
        case 3, 4 -> in.readInt();
        case 5, 6 -> {
          in.readLong();
          i++; // takes two entries
        }
        case 7, 8, 16, 19, 20 -> first[i] = in.readUnsignedShort();
        case 9, 10, 11, 12, 17, 18 -> {
          first[i] = in.readUnsignedShort();
          second[i] = in.readUnsignedShort();
        }
        case 15 -> {
          in.readUnsignedByte();
          first[i] = in.readUnsignedShort();
        }
        default -> throw new IOException("unknown constant pool tag " + tag[i] + " at " + i);
      }
    }
    in.readUnsignedShort(); // access flags
    String self = utf8[first[in.readUnsignedShort()]];
    List<Method> methods = new ArrayList<>();
    List<String> classes = new ArrayList<>();
    List<String> strings = new ArrayList<>();
    for (int i = 1; i < count; i++) {
      if (tag[i] == 10 || tag[i] == 11) {
        int nameAndType = second[i];
        methods.add(new Method(utf8[first[first[i]]], utf8[first[nameAndType]],
            utf8[second[nameAndType]]));
      } else if (tag[i] == 7) {
        classes.add(utf8[first[i]]);
      } else if (tag[i] == 1) {
        strings.add(utf8[i]);
      }
    }
    return new ClassReferences(self, methods, classes, strings);
  }
}
