package dev.guard.http;

import java.util.function.Function;

/**
 * The default way adapters turn a request path into the path part of a resource name, so that
 * {@code /orders/123} and {@code /orders/456} are one resource, {@code /orders/{id}}.
 *
 * <p>{@link #ids()} normalizes the path and replaces identifier segments with {@code {id}}:
 *
 * <ul>
 *   <li>path parameters ({@code ;jsessionid=...}) are dropped from every segment, empty segments
 *       are dropped ({@code //a/} is {@code /a}), and an empty path is {@code /};
 *   <li>a segment is an identifier when it is all decimal digits, a UUID ({@code 8-4-4-4-12} hex
 *       digits), or made of hex digits and dashes only with at least 16 hex digits, one of them a
 *       decimal digit (object ids, hashes).
 * </ul>
 *
 * <pre>{@code
 * PathCleaner.ids().apply("/orders/123/items/;v=2");                        // "/orders/{id}/items"
 * PathCleaner.ids().apply("/users/3f2c1a9e-8b7d-4c6e-9f01-23456789abcd");   // "/users/{id}"
 * }</pre>
 *
 * <p>Any {@code Function<String, String>} may clean paths instead (see {@link
 * HttpInbound#pathCleaner}); for example one that maps {@code /static/**} to one name and falls
 * back to {@code ids()} for the rest. Whatever the cleaner returns, an adapter bounds the number
 * of resources it creates.
 */
final class PathCleaner {

  private static final Function<String, String> IDS = PathCleaner::cleanIds;
  private static final int MIN_HEX_ID = 16;
  private static final int UUID_LENGTH = 36;

  private PathCleaner() {}

  /**
   * Returns the default cleaner: normalized segments, identifiers replaced by {@code {id}}.
   *
   * @return the cleaner; thread-safe and stateless
   */
  static Function<String, String> ids() {
    return IDS;
  }

  private static String cleanIds(String path) {
    StringBuilder out = new StringBuilder(path.length());
    int length = path.length();
    int start = 0;
    while (start < length) {
      int end = path.indexOf('/', start);
      if (end < 0) {
        end = length;
      }
      int parameters = path.indexOf(';', start);
      int segmentEnd = parameters >= 0 && parameters < end ? parameters : end;
      if (segmentEnd > start) {
        out.append('/');
        if (isIdentifier(path, start, segmentEnd)) {
          out.append("{id}");
        } else {
          out.append(path, start, segmentEnd);
        }
      }
      start = end + 1;
    }
    return out.length() == 0 ? "/" : out.toString();
  }

  private static boolean isIdentifier(String path, int from, int to) {
    int digits = 0;
    int hex = 0;
    int dashes = 0;
    for (int i = from; i < to; i++) {
      char c = path.charAt(i);
      if (c >= '0' && c <= '9') {
        digits++;
      } else if ((c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')) {
        hex++;
      } else if (c == '-') {
        dashes++;
      } else {
        return false;
      }
    }
    int length = to - from;
    if (digits == length) {
      return true;
    }
    if (length == UUID_LENGTH && dashes == 4 && isUuidShape(path, from)) {
      return true;
    }
    return digits > 0 && digits + hex >= MIN_HEX_ID;
  }

  private static boolean isUuidShape(String path, int from) {
    return path.charAt(from + 8) == '-' && path.charAt(from + 13) == '-'
        && path.charAt(from + 18) == '-' && path.charAt(from + 23) == '-';
  }
}
