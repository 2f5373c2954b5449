package dev.guard.benchmarks;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A minimal JSON reader, enough for JMH's result files, so the report needs no library in the
 * benchmark jar.
 *
 * <p>Objects become {@code Map<String, Object>} (keys in file order), arrays {@code List<Object>},
 * numbers {@code Double}, strings {@code String}, booleans {@code Boolean}, and {@code null} the
 * marker {@link #NULL}.
 */
final class Json {
  /** Stands for a JSON {@code null}. */
  static final Object NULL = new Object();

  private final String text;
  private int pos;

  private Json(String text) {
    this.text = text;
  }

  /**
   * Parses one JSON document.
   *
   * @throws IllegalArgumentException at the first syntax error, with its offset
   */
  static Object parse(String text) {
    Json json = new Json(text);
    Object value = json.value();
    json.skipSpace();
    if (json.pos != text.length()) {
      throw json.error("trailing characters");
    }
    return value;
  }

  private Object value() {
    skipSpace();
    if (pos >= text.length()) {
      throw error("unexpected end of input");
    }
    char c = text.charAt(pos);
    switch (c) {
      case '{':
        return object();
      case '[':
        return array();
      case '"':
        return string();
      case 't':
        return literal("true", Boolean.TRUE);
      case 'f':
        return literal("false", Boolean.FALSE);
      case 'n':
        return literal("null", NULL);
      default:
        return number();
    }
  }

  private Map<String, Object> object() {
    Map<String, Object> map = new LinkedHashMap<>();
    pos++;
    skipSpace();
    if (peek() == '}') {
      pos++;
      return map;
    }
    while (true) {
      skipSpace();
      if (peek() != '"') {
        throw error("expected a key");
      }
      String key = string();
      skipSpace();
      expect(':');
      map.put(key, value());
      skipSpace();
      if (peek() == ',') {
        pos++;
      } else {
        expect('}');
        return map;
      }
    }
  }

  private List<Object> array() {
    List<Object> list = new ArrayList<>();
    pos++;
    skipSpace();
    if (peek() == ']') {
      pos++;
      return list;
    }
    while (true) {
      list.add(value());
      skipSpace();
      if (peek() == ',') {
        pos++;
      } else {
        expect(']');
        return list;
      }
    }
  }

  private String string() {
    expect('"');
    StringBuilder out = new StringBuilder();
    while (true) {
      if (pos >= text.length()) {
        throw error("unterminated string");
      }
      char c = text.charAt(pos++);
      if (c == '"') {
        return out.toString();
      }
      if (c != '\\') {
        out.append(c);
        continue;
      }
      if (pos >= text.length()) {
        throw error("unterminated escape");
      }
      char e = text.charAt(pos++);
      switch (e) {
        case 'b' -> out.append('\b');
        case 'f' -> out.append('\f');
        case 'n' -> out.append('\n');
        case 'r' -> out.append('\r');
        case 't' -> out.append('\t');
        case 'u' -> {
          if (pos + 4 > text.length()) {
            throw error("short unicode escape");
          }
          out.append((char) Integer.parseInt(text.substring(pos, pos + 4), 16));
          pos += 4;
        }
        default -> out.append(e); // '"', '\\' and '/'
      }
    }
  }

  private Double number() {
    int start = pos;
    while (pos < text.length() && "+-0123456789.eE".indexOf(text.charAt(pos)) >= 0) {
      pos++;
    }
    if (start == pos) {
      throw error("unexpected character '" + text.charAt(pos) + "'");
    }
    try {
      return Double.valueOf(text.substring(start, pos));
    } catch (NumberFormatException e) {
      throw error("bad number " + text.substring(start, pos));
    }
  }

  private Object literal(String word, Object value) {
    if (!text.startsWith(word, pos)) {
      throw error("expected " + word);
    }
    pos += word.length();
    return value;
  }

  private char peek() {
    if (pos >= text.length()) {
      throw error("unexpected end of input");
    }
    return text.charAt(pos);
  }

  private void expect(char c) {
    if (peek() != c) {
      throw error("expected '" + c + "'");
    }
    pos++;
  }

  private void skipSpace() {
    while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
      pos++;
    }
  }

  private IllegalArgumentException error(String what) {
    return new IllegalArgumentException("JSON: " + what + " at offset " + pos);
  }
}
