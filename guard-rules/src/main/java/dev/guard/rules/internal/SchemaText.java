package dev.guard.rules.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** The rule document's JSON Schema, read from this module's resources on first use. */
public final class SchemaText {

  private static final String RESOURCE = "/dev/guard/rules/rules.schema.json";

  private SchemaText() {}

  /**
   * The schema's text.
   *
   * @return the text of {@code rules.schema.json}
   */
  public static String text() {
    return Holder.TEXT;
  }

  /** Loads the text once, when first asked for. */
  private static final class Holder {
    static final String TEXT = load();

    private static String load() {
      try (InputStream in = SchemaText.class.getResourceAsStream(RESOURCE)) {
        if (in == null) {
          throw new IllegalStateException(RESOURCE + " is missing from guard-rules");
        }
        return new String(in.readAllBytes(), StandardCharsets.UTF_8);
      } catch (IOException unreadable) {
        throw new UncheckedIOException(unreadable);
      }
    }
  }
}
