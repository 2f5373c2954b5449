package dev.guard.dashboard.internal;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Map;

/** The JDK server's thin adapter: an exchange in, the core's response out. */
public final class JdkHandler implements HttpHandler {

  private final DashboardCore core;
  private final boolean loopback;

  /**
   * Creates the adapter.
   *
   * @param core the dashboard's core
   * @param loopback whether the server listens on a loopback address (Host is then checked)
   */
  public JdkHandler(DashboardCore core, boolean loopback) {
    this.core = core;
    this.loopback = loopback;
  }

  @Override
  public void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      DashboardRequest request = new DashboardRequest(
          exchange.getRequestMethod(),
          exchange.getRequestURI().getPath(),
          DashboardRequest.parseQuery(exchange.getRequestURI().getRawQuery()),
          name -> exchange.getRequestHeaders().getFirst(name),
          exchange.getRequestBody(),
          false);
      DashboardResponse response = core.handle(request, loopback);
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
}
