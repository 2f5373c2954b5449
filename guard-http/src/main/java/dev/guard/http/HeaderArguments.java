package dev.guard.http;

import dev.guard.api.internal.Checks;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * A request's arguments taken from its headers, as {@link HttpInbound#argumentHeaders} describes:
 * bounded in length whatever a client sends, and never null.
 */
final class HeaderArguments implements Function<HttpInbound.Request, @Nullable Object[]> {

  /** The longest header value kept as it is; a longer one is replaced by its digest. */
  static final int MAX_LENGTH = 128;

  private static final @Nullable Object[] NO_ARGUMENTS = new Object[0];

  /** The arguments of a request when none are configured: none (one shared empty array). */
  static final Function<HttpInbound.Request, @Nullable Object[]> NONE = request -> NO_ARGUMENTS;

  private final String[] names;

  private HeaderArguments(String[] names) {
    this.names = names;
  }

  static HeaderArguments of(String... names) {
    if (names.length == 0) {
      throw Checks.invalid("argumentHeaders", "[]", "must name at least one header");
    }
    String[] copy = names.clone();
    for (String name : copy) {
      Checks.notBlank("argumentHeaders", name);
    }
    return new HeaderArguments(copy);
  }

  @Override
  public @Nullable Object[] apply(HttpInbound.Request request) {
    Object[] args = new Object[names.length];
    for (int i = 0; i < args.length; i++) {
      args[i] = bounded(request.header(names[i]).map(String::trim).orElse(""));
    }
    return args;
  }

  /** The value itself, or for one longer than {@link #MAX_LENGTH} its SHA-256 digest in hex. */
  static String bounded(String value) {
    if (value.length() <= MAX_LENGTH) {
      return value;
    }
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256")
          .digest(value.getBytes(StandardCharsets.UTF_8));
      return "sha256:" + HexFormat.of().formatHex(digest);
    } catch (NoSuchAlgorithmException impossible) { // every JDK has SHA-256
      throw new IllegalStateException(impossible);
    }
  }
}
