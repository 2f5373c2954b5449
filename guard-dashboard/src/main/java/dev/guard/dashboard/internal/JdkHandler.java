package dev.guard.dashboard.internal;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.util.Map;

/**
 * The JDK server's thin adapter: an exchange in, the core's response out. The body is read
 * whole (at most {@link DashboardRequest#MAX_BODY_BYTES} and one byte) before the core answers, so
 * the request's deadline covers all the reading and none of the answering ({@link
 * RequestWorkers}).
 */
public final class JdkHandler implements HttpHandler {

  private final DashboardCore core;
  private final boolean loopback;
  private final RequestWorkers workers;

  /**
   * Creates the adapter.
   *
   * @param core the dashboard's core
   * @param loopback whether the server listens on a loopback address (Host is then checked)
   * @param workers the server's workers, whose deadline is paused while the core answers
   */
  public JdkHandler(DashboardCore core, boolean loopback, RequestWorkers workers) {
    this.core = core;
    this.loopback = loopback;
    this.workers = workers;
  }

  @Override
  public void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      byte[] body = exchange.getRequestBody().readNBytes(DashboardRequest.MAX_BODY_BYTES + 1);
      InetSocketAddress remote = exchange.getRemoteAddress();
      String client = remote.getAddress() == null
          ? remote.getHostString() : remote.getAddress().getHostAddress();
      DashboardRequest request = new DashboardRequest(
          exchange.getRequestMethod(),
          exchange.getRequestURI().getPath(),
          DashboardRequest.parseQuery(exchange.getRequestURI().getRawQuery()),
          name -> exchange.getRequestHeaders().getFirst(name),
          new ByteArrayInputStream(body),
          false,
          client);
      DashboardResponse response = workers.outsideDeadline(() -> core.handle(request, loopback));
      send(exchange, response);
    }
  }

  private static void send(HttpExchange exchange, DashboardResponse response) throws IOException {
    for (Map.Entry<String, String> header : response.headers().entrySet()) {
      exchange.getResponseHeaders().set(header.getKey(), header.getValue());
    }
    byte[] body = response.body();
    exchange.sendResponseHeaders(response.status(), body.length == 0 ? -1 : body.length);
    if (body.length > 0) {
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    }
  }
}
