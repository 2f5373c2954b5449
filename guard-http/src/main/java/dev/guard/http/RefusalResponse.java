package dev.guard.http;

import dev.guard.api.RefusedException;
import dev.guard.api.internal.Checks;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The HTTP response an inbound adapter sends instead of running the handler when guard refuses a
 * request: a status, a body with its content type, and optionally a {@code Retry-After} wait.
 *
 * <p>{@link #of(RefusedException)} is the default: {@code 503 Service Unavailable} for an open
 * circuit breaker ({@link RefusedException.CircuitBreaker}), {@code 429 Too Many Requests} for every
 * other refusal, with a small JSON body:
 *
 * <pre>{@code
 * {"status":429,"error":"Too Many Requests","protection":"flow","resource":"GET /orders/{id}"}
 * }</pre>
 *
 * <p>Customize it with {@link HttpInbound#refusalResponse}:
 *
 * <pre>{@code
 * HttpInbound.of(engine).refusalResponse(refused -> refused instanceof RefusedException.Origin
 *     ? new RefusalResponse(403, "text/plain", "forbidden", null)
 *     : RefusalResponse.of(refused));
 * }</pre>
 *
 * @param status the HTTP status code, from 100 to 599
 * @param contentType the {@code Content-Type} of the body
 * @param body the body, sent as UTF-8; empty for none
 * @param retryAfter the wait to announce in {@code Retry-After} (whole seconds, rounded up), or
 *     null for no such header
 */
public record RefusalResponse(
    int status, String contentType, String body, @Nullable Duration retryAfter) {

  /**
   * Validates the response.
   *
   * @param status the HTTP status code, from 100 to 599
   * @param contentType the {@code Content-Type} of the body
   * @param body the body, sent as UTF-8; empty for none
   * @param retryAfter the wait to announce in {@code Retry-After}, or null
   * @throws IllegalArgumentException if the status is not from 100 to 599, the content type is
   *     blank or the wait is negative
   */
  public RefusalResponse {
    if (status < 100 || status > 599) {
      throw Checks.invalid("status", status, "must be from 100 to 599");
    }
    Checks.notBlank("contentType", contentType);
    Objects.requireNonNull(body, "body");
    if (retryAfter != null) {
      Checks.notNegative("retryAfter", retryAfter);
    }
  }

  /**
   * Returns the default response for a refusal: 503 for a circuit breaker, 429 otherwise, with a
   * JSON body naming the protection and the resource, and the refusal's retry hint as {@code
   * Retry-After} where it knows one ({@link RefusedException#retryAfter()}): the time until an
   * open breaker lets a probe through, a QPS limit's next window bucket, room in a pacing queue, a
   * hot-parameter value's next token.
   *
   * @param refused the refusal
   * @return the response
   */
  public static RefusalResponse of(RefusedException refused) {
    int status = refused instanceof RefusedException.CircuitBreaker ? 503 : 429;
    String reason = status == 503 ? "Service Unavailable" : "Too Many Requests";
    String body = "{\"status\":" + status + ",\"error\":\"" + reason + "\",\"protection\":\""
        + protection(refused) + "\",\"resource\":\"" + jsonEscaped(refused.resource()) + "\"}";
    return new RefusalResponse(status, "application/json", body, retryHint(refused));
  }

  private static @Nullable Duration retryHint(RefusedException refused) {
    return refused.retryAfter().orElse(null);
  }

  /**
   * Returns the {@code Retry-After} header value: the wait in whole seconds, rounded up.
   *
   * @return the header value, or null when no wait is announced
   */
  @Nullable String retryAfterHeader() {
    Duration wait = retryAfter;
    if (wait == null) {
      return null;
    }
    long seconds = wait.getSeconds() + (wait.getNano() > 0 ? 1 : 0);
    return Long.toString(seconds);
  }

  private static String protection(RefusedException refused) {
    return RefusedException.Kind.of(refused).tag();
  }

  private static String jsonEscaped(String text) {
    StringBuilder out = new StringBuilder(text.length() + 8);
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '"' || c == '\\') {
        out.append('\\').append(c);
      } else if (c < 0x20) {
        out.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }
}
