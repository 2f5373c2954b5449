package dev.guard.http;

import com.sun.net.httpserver.Filter;
import com.sun.net.httpserver.HttpExchange;
import dev.guard.api.RefusedException;
import java.io.IOException;
import java.io.OutputStream;

/**
 * A filter for the JDK's built-in HTTP server ({@code com.sun.net.httpserver}) that protects every
 * request of the contexts it is added to with guard, as {@link HttpInbound} describes; it needs no
 * dependency beyond the JDK.
 *
 * <pre>{@code
 * HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 8080), 0);
 * GuardHttpServerFilter guard = GuardHttpServerFilter.of(HttpInbound.of(engine).entrance("shop"));
 * server.createContext("/orders", ordersHandler).getFilters().add(guard);
 * }</pre>
 *
 * <p>The resource's path is the raw request path decoded strictly: the JDK server decodes but
 * never normalizes a path and picks a context by prefix of the decoded path, so a path with a dot
 * segment, an encoded {@code /} or {@code %}, a control character or bytes that are not UTF-8 is
 * answered 400 before the handler runs (see {@code docs/HTTP.md}, "Which path").
 *
 * <p>The handler receives a wrapper of the exchange that sees the response complete. The
 * request's entry exits when the response is complete: when the response body is closed (or the
 * exchange, as the JDK requires of every handler), when headers are sent with no body to follow
 * ({@code sendResponseHeaders(status, -1)}, {@code HEAD}, 1xx, 204, 304), or when the handler
 * throws. A handler may return before responding and complete the exchange on another thread
 * later; the entry stays open until it does. An exception the handler throws, an I/O error writing
 * the response body, and a status the settings count as an error (5xx by default) are recorded on
 * the entry. A {@link RefusedException} the handler throws before sending headers is answered with
 * the refusal response.
 *
 * <p>Thread-safe; one instance may be added to several contexts (they share its bounded resource
 * table).
 */
public final class GuardHttpServerFilter extends Filter {

  private final InboundGate gate;

  private GuardHttpServerFilter(InboundGate gate) {
    this.gate = gate;
  }

  /**
   * Creates a filter with these settings.
   *
   * @param settings the inbound settings
   * @return the filter
   */
  public static GuardHttpServerFilter of(HttpInbound settings) {
    return new GuardHttpServerFilter(InboundGate.of(settings));
  }

  /**
   * Returns how many requests this filter mapped to {@link HttpInbound#OVERFLOW_RESOURCE} because
   * it had created its maximum number of resources.
   *
   * @return the count
   */
  public long overflows() {
    return gate.overflows();
  }

  @Override
  public String description() {
    return "guard: protects requests as inbound calls, answers refusals";
  }

  @Override
  public void doFilter(HttpExchange exchange, Chain chain) throws IOException {
    String rawPath = exchange.getRequestURI().getRawPath();
    HttpInbound.Request view = HttpInbound.Request.of(exchange, exchange.getRequestMethod(),
        rawPath == null ? "/" : rawPath, (in, name) -> in.getRequestHeaders().getFirst(name),
        in -> in.getRemoteAddress().getAddress().getHostAddress());
    Admission admission = gate.admit(view, view.method(), view.path());
    Admission.Refusal refused = admission.refusal();
    if (refused != null) {
      answer(exchange, refused);
      return;
    }
    admission.headers(exchange.getResponseHeaders()::set);
    ExchangeCompletion completion = new ExchangeCompletion(admission, exchange);
    HttpExchange guarded = completion.exchange();
    try {
      chain.doFilter(guarded);
    } catch (RefusedException nested) {
      if (completion.responseStarted()) {
        completion.fail(nested);
        throw nested;
      }
      answer(guarded, admission.refusedInside(nested));
    } catch (Throwable failure) {
      completion.fail(failure);
      throw failure;
    } finally {
      admission.close();
    }
  }

  private static void answer(HttpExchange exchange, Admission.Refusal refusal) throws IOException {
    try {
      refusal.headers(exchange.getResponseHeaders()::set);
      byte[] body = refusal.body();
      exchange.getResponseHeaders().set("Content-Type", refusal.response().contentType());
      boolean noBody = body.length == 0 || "HEAD".equalsIgnoreCase(exchange.getRequestMethod());
      exchange.sendResponseHeaders(refusal.status(), noBody ? -1 : body.length);
      if (!noBody) {
        OutputStream out = exchange.getResponseBody();
        out.write(body);
      }
    } finally {
      exchange.close();
    }
  }
}
