package dev.guard.dashboard.internal;

import java.io.IOException;
import java.io.InputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * One HTTP request as the core sees it, whichever server received it: the method, the path below
 * the dashboard's root (starting with {@code /}), the decoded query parameters, a header lookup
 * and the body.
 *
 * @param method the HTTP method, upper case
 * @param path the path below the dashboard's root, starting with {@code /}
 * @param query the query parameters (the first value of each)
 * @param headers looks a header up by name (case-insensitive), or null
 * @param body the request body
 * @param secure whether the request came over HTTPS (cookies are then marked Secure)
 * @param client the address the request came from, as the server reports it (failed logins are
 *     counted by it)
 */
public record DashboardRequest(
    String method,
    String path,
    Map<String, String> query,
    Function<String, @Nullable String> headers,
    InputStream body,
    boolean secure,
    String client) {

  /** The largest body read: a rule document is at most 1 MiB of characters. */
  static final int MAX_BODY_BYTES = 4 << 20;

  /**
   * Creates a request.
   *
   * @param method the HTTP method
   * @param path the path below the root
   * @param query the query parameters
   * @param headers the header lookup
   * @param body the body
   * @param secure whether it came over HTTPS
   * @param client the client's address
   */
  public DashboardRequest {
    method = method.toUpperCase(Locale.ROOT);
    query = Map.copyOf(query);
  }

  /**
   * Parses a raw query string ({@code a=1&b=x%20y}).
   *
   * @param raw the raw query, or null
   * @return the parameters, first value of each
   */
  public static Map<String, String> parseQuery(@Nullable String raw) {
    Map<String, String> params = new LinkedHashMap<>();
    if (raw == null || raw.isEmpty()) {
      return params;
    }
    for (String pair : raw.split("&")) {
      int eq = pair.indexOf('=');
      String name = decode(eq < 0 ? pair : pair.substring(0, eq));
      String value = eq < 0 ? "" : decode(pair.substring(eq + 1));
      params.putIfAbsent(name, value);
    }
    return params;
  }

  private static String decode(String text) {
    try {
      return URLDecoder.decode(text, StandardCharsets.UTF_8);
    } catch (IllegalArgumentException malformed) {
      return text;
    }
  }

  /** A header, or null. */
  @Nullable String header(String name) {
    return headers.apply(name);
  }

  /** The body as UTF-8 text, or null if longer than {@link #MAX_BODY_BYTES}. */
  @Nullable String bodyText() throws IOException {
    byte[] bytes = body.readNBytes(MAX_BODY_BYTES + 1);
    return bytes.length > MAX_BODY_BYTES ? null : new String(bytes, StandardCharsets.UTF_8);
  }
}
