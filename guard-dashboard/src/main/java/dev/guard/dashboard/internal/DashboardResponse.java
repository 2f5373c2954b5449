package dev.guard.dashboard.internal;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.ObjectMapper;

/**
 * One HTTP response from the core: status, headers (the content type among them) and body. The
 * adapters copy it to their server's response as is.
 *
 * @param status the HTTP status
 * @param headers the response headers
 * @param body the body bytes
 */
public record DashboardResponse(int status, Map<String, String> headers, byte[] body) {

  private static final String JSON = "application/json";

  private static final ObjectMapper WRITER = new ObjectMapper();

  /** Headers every response carries: no caching, no sniffing, no framing, only own scripts. */
  private static final Map<String, String> SECURITY = Map.of(
      "Cache-Control", "no-store",
      "X-Content-Type-Options", "nosniff",
      "X-Frame-Options", "DENY",
      "Referrer-Policy", "no-referrer",
      "Content-Security-Policy",
      "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; form-action 'self'");

  /**
   * Copies the headers.
   *
   * @param status the status
   * @param headers the headers
   * @param body the body
   */
  public DashboardResponse {
    Map<String, String> all = new LinkedHashMap<>(SECURITY);
    all.putAll(headers);
    headers = Map.copyOf(all);
  }

  /** A JSON response: the body as Jackson writes it. */
  static DashboardResponse json(int status, Object body) {
    try {
      return of(status, JSON, WRITER.writeValueAsBytes(body));
    } catch (JacksonException impossible) {
      return of(500, JSON, "{\"error\":\"could not write JSON\"}".getBytes(StandardCharsets.UTF_8));
    }
  }

  static DashboardResponse of(int status, String contentType, byte[] body) {
    return new DashboardResponse(status, Map.of("Content-Type", contentType), body);
  }

  static DashboardResponse text(int status, String message) {
    return of(status, "text/plain; charset=utf-8", message.getBytes(StandardCharsets.UTF_8));
  }

  static DashboardResponse redirect(String location) {
    return new DashboardResponse(303, Map.of("Location", location), new byte[0]);
  }

  /** This response with one more header. */
  DashboardResponse with(String name, String value) {
    Map<String, String> more = new LinkedHashMap<>(headers);
    more.put(name, value);
    return new DashboardResponse(status, more, body);
  }
}
