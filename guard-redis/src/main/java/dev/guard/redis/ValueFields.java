package dev.guard.redis;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

/**
 * The field that names a per-value rule's value in Redis: {@code "=" + String.valueOf(value)} for
 * up to {@value #MAX_PLAIN} characters, else {@code "#"} and the value's SHA-256 (Base64, 43
 * characters), so a value sent by a caller never makes a field longer than 64 characters. Two
 * values share a field only when their {@code String.valueOf} is equal (or their digests collide).
 */
final class ValueFields {

  /** The longest value stored as it is. */
  static final int MAX_PLAIN = 63;

  private ValueFields() {}

  static String of(Object value) {
    String text = String.valueOf(value);
    if (text.length() <= MAX_PLAIN) {
      return "=" + text;
    }
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256")
          .digest(text.getBytes(StandardCharsets.UTF_8));
      return "#" + Base64.getEncoder().withoutPadding().encodeToString(digest);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
