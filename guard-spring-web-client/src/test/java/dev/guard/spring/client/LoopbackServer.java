package dev.guard.spring.client;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The JDK's HTTP server on loopback, bound to port 0: {@code /fail/..} answers 500, {@code
 * /drop} closes the connection without an answer, {@code /hang} answers only when closed, any
 * other path 200 with the body {@code ok}. It counts the requests it receives.
 */
final class LoopbackServer implements AutoCloseable {

  private final HttpServer server;
  private final ExecutorService handlers = Executors.newCachedThreadPool();
  private final CountDownLatch release = new CountDownLatch(1);
  final AtomicInteger received = new AtomicInteger();

  LoopbackServer() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setExecutor(handlers);
    server.createContext("/", this::handle);
    server.start();
  }

  /** The base URI, {@code http://127.0.0.1:port}, which is also the per-host resource name. */
  String base() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  private void handle(HttpExchange exchange) throws IOException {
    received.incrementAndGet();
    String path = exchange.getRequestURI().getPath();
    if (path.equals("/drop")) {
      exchange.close();
      return;
    }
    if (path.equals("/hang")) {
      try {
        release.await(30, TimeUnit.SECONDS);
      } catch (InterruptedException stopped) {
        Thread.currentThread().interrupt();
      }
    }
    byte[] body = "ok".getBytes(StandardCharsets.UTF_8);
    exchange.sendResponseHeaders(path.startsWith("/fail") ? 500 : 200, body.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(body);
    }
  }

  @Override
  public void close() {
    release.countDown();
    server.stop(0);
    handlers.shutdownNow();
  }
}
