package dev.guard.gateway;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * The backend behind the test gateway: a JDK HTTP server on a loopback port it bound itself (port
 * 0), started once for the test run. {@code /fail/**} answers 500, {@code /slow/**} holds its
 * answer until {@link #releaseSlow} (announcing each arrival), everything else answers 200 with
 * {@code "ok <path>"}.
 */
final class Backend {

  /** The one backend of the test run. */
  static final Backend INSTANCE = new Backend();

  private final HttpServer server;
  private final Semaphore slowArrivals = new Semaphore(0);
  private volatile CountDownLatch slowRelease = new CountDownLatch(1);

  private Backend() {
    try {
      server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    } catch (IOException e) {
      throw new UncheckedIOException("the backend could not bind a loopback port", e);
    }
    server.setExecutor(Executors.newCachedThreadPool(run -> {
      Thread thread = new Thread(run, "backend");
      thread.setDaemon(true);
      return thread;
    }));
    server.createContext("/", this::answer);
    server.start();
  }

  int port() {
    return server.getAddress().getPort();
  }

  /** Waits until a request reached {@code /slow/**}, for at most 30 seconds. */
  void awaitSlowArrival() throws InterruptedException {
    if (!slowArrivals.tryAcquire(30, TimeUnit.SECONDS)) {
      throw new AssertionError("no request reached the backend's /slow within 30 s");
    }
  }

  /** Lets the held {@code /slow/**} requests answer. */
  void releaseSlow() {
    CountDownLatch held = slowRelease;
    slowRelease = new CountDownLatch(1);
    held.countDown();
  }

  private void answer(HttpExchange exchange) throws IOException {
    String path = exchange.getRequestURI().getPath();
    int status = path.startsWith("/fail") ? 500 : 200;
    if (path.startsWith("/slow")) {
      CountDownLatch release = slowRelease;
      slowArrivals.release();
      try {
        release.await(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    byte[] body = ("ok " + path).getBytes(StandardCharsets.UTF_8);
    try (exchange) {
      exchange.sendResponseHeaders(status, body.length);
      exchange.getResponseBody().write(body);
    } catch (IOException gone) {
      // the gateway went away (a cancelled request): nothing to answer
    }
  }
}
