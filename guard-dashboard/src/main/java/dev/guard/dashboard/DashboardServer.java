package dev.guard.dashboard;

import com.sun.net.httpserver.HttpServer;
import dev.guard.dashboard.internal.RequestWorkers;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/**
 * A dashboard running on the JDK's built-in HTTP server, as {@link GuardDashboard#start()} or
 * {@link GuardDashboard#serve} returns it. Close it to stop serving; the engine and its rules are
 * not affected.
 *
 * <pre>{@code
 * try (DashboardServer dashboard = GuardDashboard.serve(engine, 8719)) {
 *   System.out.println("guard dashboard: " + dashboard.browserUri());
 *   ...
 * }
 * }</pre>
 */
public final class DashboardServer implements AutoCloseable {

  private final HttpServer server;
  private final RequestWorkers workers;
  private final URI uri;
  private final String loginToken;

  DashboardServer(HttpServer server, RequestWorkers workers, URI uri, String loginToken) {
    this.server = server;
    this.workers = workers;
    this.uri = uri;
    this.loginToken = loginToken;
  }

  /**
   * Returns where the dashboard is served: scheme, address and the port it is bound to (the
   * actual one when port 0 asked for a free port), ending in {@code /}. The JSON API is below it
   * ({@code uri().resolve("api/resources")}).
   *
   * @return the base address
   */
  public URI uri() {
    return uri;
  }

  /**
   * Returns the address to open in a browser: {@link #uri()} with the access token as {@code
   * ?token=}, which logs the browser in (an HttpOnly session cookie) and is then dropped from the
   * address bar. Without a configured token this is the dashboard's own random token, the only
   * way to make rule changes from the browser; print it only where the person who runs the
   * application can see it.
   *
   * @return the login address
   */
  public URI browserUri() {
    return URI.create(uri + "?token=" + URLEncoder.encode(loginToken, StandardCharsets.UTF_8));
  }

  /** Stops the server at once; requests in progress are cut off. Closing twice does nothing. */
  @Override
  public void close() {
    server.stop(0);
    workers.close();
  }

  @Override
  public String toString() {
    return "DashboardServer[" + uri + "]";
  }
}
