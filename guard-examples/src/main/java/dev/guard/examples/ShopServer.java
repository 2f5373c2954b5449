package dev.guard.examples;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.guard.api.TimeSource;
import dev.guard.engine.GuardEngine;
import dev.guard.http.GuardHttpServerFilter;
import dev.guard.http.HttpInbound;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The demo's shop served over HTTP on the loopback interface with the JDK's built-in server, so
 * that a person can call it with {@code curl} and see guard answer {@code 429}.
 *
 * <p>Every endpoint of {@link Shop} is a path ({@code GET /search}, ...). {@link
 * GuardHttpServerFilter} enters each request as an inbound call ({@code GET /search}) in the
 * context {@code shop}, with the caller's origin from the {@code X-Caller} header; the handler runs
 * the endpoint's guarded call, and a refusal by that guard comes back as {@code 429} with a JSON
 * body.
 */
final class ShopServer implements AutoCloseable {

  static final int DEFAULT_PORT = 8080;
  private static final int THREADS = 32;

  private final HttpServer server;
  private final ExecutorService threads = Executors.newFixedThreadPool(THREADS);
  private final List<Endpoint> endpoints;

  private ShopServer(GuardEngine engine, TimeSource time, int port) throws IOException {
    endpoints = Shop.endpoints(engine);
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
    server.setExecutor(threads);
    GuardHttpServerFilter guard =
        GuardHttpServerFilter.of(HttpInbound.on(engine).entrance("shop").originHeader("X-Caller"));
    for (Endpoint endpoint : endpoints) {
      server.createContext("/" + endpoint.name(), exchange -> handle(time, endpoint, exchange))
          .getFilters().add(guard);
    }
    server.start();
  }

  /**
   * Starts serving the shop.
   *
   * @param engine the engine every endpoint's guard is bound to
   * @param time the time source the endpoints work on
   * @param port the loopback port; 0 for any free port
   * @return the running server; close it to stop
   * @throws IOException if the port cannot be bound
   */
  static ShopServer start(GuardEngine engine, TimeSource time, int port) throws IOException {
    return new ShopServer(engine, time, port);
  }

  /** The server's base address, {@code http://127.0.0.1:port}. */
  URI base() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  /** Prints what is served and how to call it. */
  void introduce(PrintStream out) {
    out.println("guard demo shop on " + base() + " (Ctrl-C stops it)");
    out.println();
    for (Endpoint endpoint : endpoints) {
      out.println(String.format(Locale.ROOT, "  GET %-10s %s", "/" + endpoint.name(),
          endpoint.rule()));
    }
    out.println();
    out.println("Try, in another terminal (100 quick calls: about 50 answer 200, the rest 429):");
    out.println("  curl -s -o /dev/null -w '%{http_code}\\n' \"" + base()
        + "/search?[1-100]\" | sort | uniq -c");
    out.println("  curl -i " + base() + "/search");
  }

  private static void handle(TimeSource time, Endpoint endpoint, HttpExchange exchange)
      throws IOException {
    endpoint.guard().run(() -> work(time, endpoint.work().toNanos()));
    byte[] body = ("{\"endpoint\":\"" + endpoint.name() + "\",\"result\":\"ok\"}")
        .getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(200, body.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(body);
    }
  }

  private static void work(TimeSource time, long nanos) {
    if (nanos <= 0) {
      return;
    }
    try {
      time.sleep(nanos);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() {
    server.stop(0);
    threads.shutdownNow();
  }
}
