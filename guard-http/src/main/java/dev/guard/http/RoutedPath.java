package dev.guard.http;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The path a request is routed by, as the resource name uses it: decoded, one {@code /} between
 * non-empty segments, no dot segment, no path parameter. Spellings a server routes as one path
 * give one canonical path; a path whose meaning is ambiguous gives none, and the adapter answers
 * 400 before the handler runs (see {@code docs/HTTP.md}, "Which path").
 *
 * <ul>
 *   <li>{@link #ofRaw} takes a raw (still percent-encoded) path, as the JDK server receives it.
 *       That server decodes but never normalizes, and picks a context by prefix of the decoded
 *       path, so a dot segment there is ambiguous and refused, as are an encoded {@code /}, an
 *       encoded {@code %}, a backslash, a control character (NUL included), an invalid escape and
 *       bytes that are not UTF-8. Path parameters ({@code ;...}) are cut from each raw segment.
 *   <li>{@link #ofDecoded} takes a path the container has decoded and normalized already (the
 *       servlet container's own routing view); it removes any dot segment left and refuses a
 *       control character, a backslash, the replacement character {@code U+FFFD} (a lenient
 *       container's stand-in for bytes that are not UTF-8) or a {@code ..} above the root.
 * </ul>
 */
final class RoutedPath {

  private RoutedPath() {}

  /**
   * Returns the canonical form of a raw request path, or null when it is ambiguous.
   *
   * @param raw the path as sent, without query or fragment, not decoded
   */
  static @Nullable String ofRaw(String raw) {
    if (isCanonicalAscii(raw, false)) {
      return raw;
    }
    StringBuilder out = new StringBuilder(raw.length());
    int start = 0;
    while (start <= raw.length()) {
      int end = raw.indexOf('/', start);
      if (end < 0) {
        end = raw.length();
      }
      int parameters = raw.indexOf(';', start);
      String segment = decode(raw, start, parameters >= 0 && parameters < end ? parameters : end);
      if (segment == null || segment.equals(".") || segment.equals("..")) {
        return null;
      }
      if (!segment.isEmpty()) {
        out.append('/').append(segment);
      }
      start = end + 1;
    }
    return out.length() == 0 ? "/" : out.toString();
  }

  /**
   * Returns the canonical form of a path the container has decoded, or null when it is ambiguous.
   *
   * @param decoded the decoded path
   */
  static @Nullable String ofDecoded(String decoded) {
    if (isCanonicalAscii(decoded, true)) {
      return decoded;
    }
    List<String> segments = new ArrayList<>();
    for (String segment : decoded.split("/", -1)) {
      if (!allowed(segment)) {
        return null;
      }
      if (segment.equals("..")) {
        if (segments.isEmpty()) {
          return null;
        }
        segments.remove(segments.size() - 1);
      } else if (!segment.isEmpty() && !segment.equals(".")) {
        segments.add(segment);
      }
    }
    return segments.isEmpty() ? "/" : "/" + String.join("/", segments);
  }

  /**
   * Whether a path is already canonical and plain: it starts with {@code /}, has no empty, dot or
   * trailing segment, and only printable ASCII other than {@code \}, and, when raw, no {@code %}
   * or {@code ;}. Most requests take only this scan.
   */
  private static boolean isCanonicalAscii(String path, boolean decoded) {
    int length = path.length();
    if (length == 0 || path.charAt(0) != '/') {
      return false;
    }
    if (length == 1) {
      return true;
    }
    int segmentStart = 1;
    for (int i = 1; i <= length; i++) {
      char c = i == length ? '/' : path.charAt(i);
      if (c == '/') {
        int segment = i - segmentStart;
        if (segment == 0 || (segment <= 2 && isDots(path, segmentStart, i))) {
          return false;
        }
        segmentStart = i + 1;
      } else if (c <= ' ' || c >= 0x7f || c == '\\' || (!decoded && (c == '%' || c == ';'))) {
        return false;
      }
    }
    return true;
  }

  private static boolean isDots(String path, int from, int to) {
    for (int i = from; i < to; i++) {
      if (path.charAt(i) != '.') {
        return false;
      }
    }
    return true;
  }

  /** Decodes one raw segment strictly; null when it holds something ambiguous. */
  private static @Nullable String decode(String raw, int from, int to) {
    ByteBuffer bytes = ByteBuffer.allocate((to - from) * 3);
    for (int i = from; i < to; i++) {
      char c = raw.charAt(i);
      if (c == '%') {
        int value = i + 2 < to ? hex(raw.charAt(i + 1)) << 4 | hex(raw.charAt(i + 2)) : -1;
        if (value < 0) {
          return null;
        }
        bytes.put((byte) value);
        i += 2;
      } else if (c < 0x80) {
        bytes.put((byte) c);
      } else { // a character the URI let through unencoded: its UTF-8 bytes
        int codePoint = raw.codePointAt(i);
        bytes.put(Character.toString(codePoint).getBytes(StandardCharsets.UTF_8));
        i += Character.charCount(codePoint) - 1;
      }
    }
    bytes.flip();
    String segment = utf8(bytes);
    return segment != null && allowed(segment) && segment.indexOf('/') < 0
        && segment.indexOf('%') < 0 ? segment : null;
  }

  private static @Nullable String utf8(ByteBuffer bytes) {
    try {
      CharBuffer chars = StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(bytes);
      return chars.toString();
    } catch (CharacterCodingException notUtf8) {
      return null;
    }
  }

  /**
   * Whether a decoded segment is free of control characters, backslashes and the replacement
   * character (what a lenient decoder puts for bytes that are not UTF-8, so many spellings meet).
   */
  private static boolean allowed(String segment) {
    for (int i = 0; i < segment.length(); i++) {
      char c = segment.charAt(i);
      if (c < ' ' || c == 0x7f || c == '\\' || c == '\uFFFD') {
        return false;
      }
    }
    return true;
  }

  private static int hex(char c) {
    if (c >= '0' && c <= '9') {
      return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
      return c - 'a' + 10;
    }
    if (c >= 'A' && c <= 'F') {
      return c - 'A' + 10;
    }
    return -1;
  }
}
