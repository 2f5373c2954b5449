package dev.guard.rules;

import dev.guard.api.rule.InvalidRulesException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** Reading a rules document's bytes: bounded in size, strictly UTF-8. */
final class RuleText {

  /** The most bytes read: enough for the longest document in any UTF-8 encoding, plus one. */
  static final int MAX_BYTES = RuleFormat.MAX_DOCUMENT_CHARS * 4 + 1;

  private RuleText() {}

  /** Reads at most {@link #MAX_BYTES} bytes; a longer stream is cut there (and then refused). */
  static byte[] readBounded(InputStream in) throws IOException {
    return in.readNBytes(MAX_BYTES);
  }

  /**
   * Decodes a document.
   *
   * @throws InvalidRulesException if it is not UTF-8 text or too long
   */
  static String decode(byte[] bytes) {
    if (bytes.length >= MAX_BYTES) {
      throw invalid("the document must be at most " + RuleFormat.MAX_DOCUMENT_CHARS
          + " characters long, was longer");
    }
    try {
      return StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes))
          .toString();
    } catch (CharacterCodingException notText) {
      throw invalid("is not UTF-8 text");
    }
  }

  private static InvalidRulesException invalid(String message) {
    return new InvalidRulesException(List.of(new InvalidRulesException.Error("rules", message)));
  }
}
