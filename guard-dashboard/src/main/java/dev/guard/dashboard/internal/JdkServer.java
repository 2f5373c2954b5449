package dev.guard.dashboard.internal;

import java.util.concurrent.ThreadFactory;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;

/**
 * The dashboard on the JDK's HTTP server: the server, its bounded workers and the address it is
 * reached at.
 */
public final class JdkServer implements AutoCloseable {

  private final HttpServer server;
  private final RequestWorkers workers;
  private final URI uri;

  private JdkServer(HttpServer server, RequestWorkers workers, URI uri) {
    this.server = server;
    this.workers = workers;
    this.uri = uri;
  }

  /**
   * Binds the address and serves the core on it.
   *
   * @param core the request-handling core
   * @param bindAddress the address to listen on
   * @param port the port; 0 for a free one
   * @param requestTimeout each request's deadline
   * @param threads where the worker threads come from
   * @return the running server
   * @throws UncheckedIOException if the address cannot be bound
   */
  public static JdkServer start(DashboardCore core, InetAddress bindAddress, int port,
      Duration requestTimeout, ThreadFactory threads) {
    HttpServer server;
    try {
      server = HttpServer.create(new InetSocketAddress(bindAddress, port), 0);
    } catch (IOException failed) {
      throw new UncheckedIOException("cannot serve the dashboard on "
          + bindAddress.getHostAddress() + ":" + port, failed);
    }
    RequestWorkers workers = new RequestWorkers(requestTimeout, threads);
    server.setExecutor(workers);
    server.createContext("/", new JdkHandler(core, bindAddress.isLoopbackAddress(), workers));
    server.start();
    String host = bindAddress.isAnyLocalAddress() || bindAddress.isLoopbackAddress()
        ? "127.0.0.1" : bindAddress.getHostAddress();
    if (host.contains(":")) {
      host = "[" + host + "]";
    }
    return new JdkServer(server, workers,
        URI.create("http://" + host + ":" + server.getAddress().getPort() + "/"));
  }

  /**
   * The base address, ending in {@code /}.
   *
   * @return the address
   */
  public URI uri() {
    return uri;
  }

  /** Stops the server at once and its workers; closing twice does nothing. */
  @Override
  public void close() {
    server.stop(0);
    workers.close();
  }
}
