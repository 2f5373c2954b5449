package dev.guard.engine.internal.call;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Keeps the entry and the exit of a call each one method too long for the JIT to inline. HotSpot's
 * C2 never inlines a hot method of more than {@code FreqInlineSize} (325) bytes of bytecode.
 * Because both are longer, the resource handle and the DSL's decorators that call them compile to
 * small methods. The
 * JIT can then inline them into the application's method, and a refusal they throw becomes a jump
 * to the application's {@code catch} instead of a frame unwind. That unwind costs about four times
 * the refusal itself (docs/PERFORMANCE.md, "Why a refusal is cheap").
 */
class CallPathShapeTest {

  private static final int FREQ_INLINE_SIZE = 325;

  @Test
  void enterAndExit_areTooLongForTheJitToInline() throws IOException {
    Map<String, Integer> sizes = codeSizes(CallPath.class);

    assertThat(sizes)
        .as("bytecode size of CallPath's methods")
        .hasEntrySatisfying(
            "enter(Ldev/guard/engine/internal/call/CallSite;Z[Ljava/lang/Object;"
                + "ILjava/lang/Object;Ljava/lang/Object;)",
            size -> assertThat(size).isGreaterThan(FREQ_INLINE_SIZE + 40))
        .hasEntrySatisfying(
            "exit(Ldev/guard/engine/internal/call/CallEntry;Ljava/lang/Throwable;"
                + "Ljava/util/function/Predicate;)",
            size -> assertThat(size).isGreaterThan(FREQ_INLINE_SIZE + 40));
  }

  /** Reads the bytecode length of every method of a class: name plus parameter descriptor. */
  private static Map<String, Integer> codeSizes(Class<?> type) throws IOException {
    String file = type.getName().replace('.', '/') + ".class";
    try (InputStream raw = type.getClassLoader().getResourceAsStream(file)) {
      assertThat(raw).as(file).isNotNull();
      DataInputStream in = new DataInputStream(raw);
      in.readInt(); // magic
      in.readUnsignedShort(); // minor
      in.readUnsignedShort(); // major
      String[] utf8 = readConstantPool(in);
      in.skipBytes(6); // access, this, super
      in.skipBytes(2 * in.readUnsignedShort()); // interfaces
      skipMembers(in); // fields
      Map<String, Integer> sizes = new HashMap<>();
      int methods = in.readUnsignedShort();
      for (int m = 0; m < methods; m++) {
        in.readUnsignedShort(); // access
        String name = utf8[in.readUnsignedShort()];
        String descriptor = utf8[in.readUnsignedShort()];
        int attributes = in.readUnsignedShort();
        for (int a = 0; a < attributes; a++) {
          String attribute = utf8[in.readUnsignedShort()];
          int length = in.readInt();
          if (attribute.equals("Code")) {
            in.skipBytes(4); // max stack, max locals
            int codeLength = in.readInt();
            sizes.put(name + descriptor.substring(0, descriptor.indexOf(')') + 1), codeLength);
            in.skipBytes(length - 8);
          } else {
            in.skipBytes(length);
          }
        }
      }
      return sizes;
    }
  }

  private static String[] readConstantPool(DataInputStream in) throws IOException {
    int count = in.readUnsignedShort();
    String[] utf8 = new String[count];
    for (int i = 1; i < count; i++) {
      int tag = in.readUnsignedByte();
      switch (tag) {
        case 1 -> utf8[i] = in.readUTF();
        case 7, 8, 16, 19, 20 -> in.skipBytes(2);
        case 15 -> in.skipBytes(3);
        case 3, 4, 9, 10, 11, 12, 17, 18 -> in.skipBytes(4);
        case 5, 6 -> {
          in.skipBytes(8);
          i++; // longs and doubles take two entries
        }
        default -> throw new IOException("unknown constant pool tag " + tag);
      }
    }
    return utf8;
  }

  private static void skipMembers(DataInputStream in) throws IOException {
    int members = in.readUnsignedShort();
    for (int m = 0; m < members; m++) {
      in.skipBytes(6);
      int attributes = in.readUnsignedShort();
      for (int a = 0; a < attributes; a++) {
        in.skipBytes(2);
        in.skipBytes(in.readInt());
      }
    }
  }
}
