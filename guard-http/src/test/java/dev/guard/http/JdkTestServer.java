package dev.guard.http;

import com.sun.net.httpserver.Filter;
import com.sun.net.httpserver.HttpContext;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/** The test application on the JDK's built-in HTTP server behind {@link GuardHttpServerFilter}. */
final class JdkTestServer implements TestServer {

  private final HttpServer server;
  private final GuardHttpServerFilter guard;
  private final ExecutorService handlers = Executors.newCachedThreadPool();
  private final ExecutorService workers = Executors.newCachedThreadPool();

  private JdkTestServer(TestApp app, HttpInbound inbound) throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setExecutor(handlers);
    guard = GuardHttpServerFilter.of(inbound);
    HttpContext context = server.createContext("/", exchange -> handle(app, exchange));
    context.getFilters().add(new Finished(app));
    context.getFilters().add(guard);
    server.start();
  }

  static JdkTestServer start(TestApp app, HttpInbound inbound) throws IOException {
    return new JdkTestServer(app, inbound);
  }

  @Override
  public URI base() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  @Override
  public long overflows() {
    return guard.overflows();
  }

  @Override
  public void close() {
    server.stop(0);
    handlers.shutdownNow();
    workers.shutdownNow();
  }

  private void handle(TestApp app, HttpExchange exchange) throws IOException {
    app.handled.incrementAndGet();
    String path = exchange.getRequestURI().getPath();
    switch (TestApp.route(path)) {
      case "status" -> answer(exchange, TestApp.statusOf(path), "status");
      case "throw" -> throw new IllegalStateException("boom");
      case "async" -> workers.execute(() -> {
        TestApp.await(app.release);
        try {
          answer(exchange, 200, "async done");
        } catch (IOException e) {
          throw new IllegalStateException(e);
        } finally {
          app.finished.release();
        }
      });
      case "async-stream" -> workers.execute(() -> {
        try (OutputStream out = exchange.getResponseBody()) {
          exchange.sendResponseHeaders(200, 0);
          app.stream(out);
        } catch (IOException e) {
          // the client went away
        } finally {
          app.finished.release();
        }
      });
      case "stream" -> {
        exchange.sendResponseHeaders(200, 0);
        try (OutputStream out = exchange.getResponseBody()) {
          app.stream(out);
        }
      }
      case "nested" -> answer(exchange, 200, app.nested());
      case "empty" -> exchange.sendResponseHeaders(204, -1); // no body: complete without a close
      default -> answer(exchange, 200, "order");
    }
  }

  private static void answer(HttpExchange exchange, int status, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "text/plain");
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  /** Outside the guard filter: tells the test when the server is done with a request. */
  private static final class Finished extends Filter {

    private final TestApp app;

    Finished(TestApp app) {
      this.app = app;
    }

    @Override
    public String description() {
      return "signals finished requests to the test";
    }

    @Override
    public void doFilter(HttpExchange exchange, Chain chain) throws IOException {
      boolean async = TestApp.route(exchange.getRequestURI().getPath()).startsWith("async");
      try {
        chain.doFilter(exchange);
      } finally {
        if (async) {
          app.dispatchReturned.countDown();
        } else {
          app.finished.release();
        }
      }
    }
  }
}
