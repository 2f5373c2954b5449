package dev.guard.gateway;

import dev.guard.http.HttpInbound;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpCookie;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.server.ServerWebExchange;

/**
 * Where one per-key argument of a guarded request comes from, parsed from its spelling in a
 * route's configuration: {@code client-address}, {@code host}, {@code header:NAME}, {@code
 * query:NAME} or {@code cookie:NAME}. A value is trimmed; an absent one is the empty string (its
 * own key: leaving a value out does not escape a limit), and a long one is kept as its digest
 * ({@link HttpInbound#boundedArgument}).
 */
final class KeySource {

  private final String spelling;
  private final Function<ServerWebExchange, @Nullable String> reader;

  private KeySource(String spelling, Function<ServerWebExchange, @Nullable String> reader) {
    this.spelling = spelling;
    this.reader = reader;
  }

  /**
   * Parses a key's spelling.
   *
   * @param spelling as in a route's {@code keys}
   * @param proxies the trusted proxies, for {@code client-address}
   * @throws IllegalArgumentException naming {@code keys} and the spelling if it is not one of the
   *     forms above
   */
  static KeySource parse(String spelling, TrustedProxies proxies) {
    String key = spelling.trim();
    if (key.equals("client-address")) {
      return new KeySource(key, exchange -> proxies.clientAddress(exchange.getRequest()));
    }
    if (key.equals("host")) {
      return new KeySource(key, exchange -> host(exchange.getRequest()));
    }
    int colon = key.indexOf(':');
    String kind = colon < 0 ? key : key.substring(0, colon);
    String name = colon < 0 ? "" : key.substring(colon + 1).trim();
    if (name.isEmpty() && (kind.equals("header") || kind.equals("query")
        || kind.equals("cookie"))) {
      throw invalid(spelling, "'" + kind + ":' needs a name");
    }
    return switch (kind) {
      case "header" -> new KeySource(key, exchange ->
          exchange.getRequest().getHeaders().getFirst(name));
      case "query" -> new KeySource(key, exchange ->
          exchange.getRequest().getQueryParams().getFirst(name));
      case "cookie" -> new KeySource(key, exchange -> cookie(exchange.getRequest(), name));
      default -> throw invalid(spelling, "must be client-address, host, header:NAME, "
          + "query:NAME or cookie:NAME");
    };
  }

  private static IllegalArgumentException invalid(String spelling, String must) {
    return new IllegalArgumentException("keys: " + must + ", was '" + spelling + "'");
  }

  /** The request's value of this key, as an argument: trimmed, "" when absent, bounded. */
  String valueOf(ServerWebExchange exchange) {
    String value = reader.apply(exchange);
    return HttpInbound.boundedArgument(value == null ? "" : value.trim());
  }

  private static @Nullable String cookie(ServerHttpRequest request, String name) {
    List<HttpCookie> cookies = request.getCookies().get(name);
    return cookies == null || cookies.isEmpty() ? null : cookies.get(0).getValue();
  }

  /** The Host header's host, in lower case, without a port. */
  private static @Nullable String host(ServerHttpRequest request) {
    String host = request.getHeaders().getFirst("Host");
    if (host == null) {
      return null;
    }
    host = host.trim().toLowerCase(Locale.ROOT);
    if (host.startsWith("[")) {
      int end = host.indexOf(']');
      return end < 0 ? host : host.substring(0, end + 1);
    }
    int colon = host.lastIndexOf(':');
    return colon < 0 ? host : host.substring(0, colon);
  }

  @Override
  public String toString() {
    return spelling;
  }
}
