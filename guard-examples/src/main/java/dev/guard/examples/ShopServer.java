package dev.guard.examples;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.guard.spi.TimeSource;
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
import org.jspecify.annotations.Nullable;
import java.util.concurrent.Executors;
import java.util.function.Function;

/**
 * The demo's shop served over HTTP on the loopback interface with the JDK's built-in server, so
 * that a person can call it with {@code curl} and see guard answer {@code 429}.
 *
 * <p>Every endpoint of {@link Shop} is a path ({@code GET /search}, ...). {@link
 * GuardHttpServerFilter} enters each request as an inbound call ({@code GET /search}) in the
 * context {@code shop}, with the caller's origin from the {@code X-Caller} header; the handler runs
 * the endpoint's guarded call (for {@code profile}, on behalf of the {@code user} query parameter;
 * {@code fail=1} makes the call's pretend dependency fail, answered 500), and a refusal by that
 * guard comes back as {@code 429} ({@code 503} from the {@code inventory} breaker) with a JSON
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
        GuardHttpServerFilter.of(HttpInbound.of(engine).entrance("shop").originHeader("X-Caller"));
    for (Endpoint endpoint : endpoints) {
      Function<Call, Boolean> call = guardedCall(time, endpoint);
      server.createContext("/" + endpoint.name(), exchange -> handle(endpoint, call, exchange))
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
    out.println("  curl -i \"" + base() + "/profile?user=noisy&call=[1-6]\"   # 5 per user a second");
    out.println("  curl -s -o /dev/null -w '%{http_code}\\n' \"" + base()
        + "/inventory?fail=1&call=[1-8]\"   # 5 failures open the breaker: 503");
    out.println("  curl -i " + base() + "/inventory   # 503 with Retry-After, then 200 after 2 s");
  }

  /** One request to an endpoint: on behalf of whom, and whether its dependency is to fail. */
  private record Call(String user, boolean fail) {}

  /**
   * The endpoint's guarded call: for a per-user endpoint, the user is the guarded function's
   * argument, which its per-value rule limits; a failing call throws, which the guard counts
   * (the {@code inventory} breaker opens on it).
   */
  private static Function<Call, Boolean> guardedCall(TimeSource time, Endpoint endpoint) {
    long workNanos = endpoint.work().toNanos();
    if (endpoint.callers().isEmpty()) {
      return call -> endpoint.guard().call(() -> work(time, workNanos, call.fail()));
    }
    Function<String, Boolean> perUser =
        endpoint.guard().decorateFunction(user -> work(time, workNanos, false));
    return call -> perUser.apply(call.user());
  }

  private static void handle(Endpoint endpoint, Function<Call, Boolean> guarded,
      HttpExchange exchange) throws IOException {
    String query = exchange.getRequestURI().getRawQuery();
    String user = user(query);
    int status = 200;
    String result;
    try {
      result = guarded.apply(new Call(user, fails(query))) ? "ok" : "failed";
    } catch (DependencyDownException down) {
      status = 500;
      result = "dependency down";
    }
    String who = endpoint.callers().isEmpty() ? "" : ",\"user\":\"" + user + "\"";
    byte[] body = ("{\"endpoint\":\"" + endpoint.name() + "\"" + who + ",\"result\":\"" + result + "\"}")
        .getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(status, body.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(body);
    }
  }

  /** The {@code user} query parameter (letters and digits only), or {@code anonymous}. */
  static String user(@Nullable String query) {
    if (query != null) {
      for (String parameter : query.split("&", -1)) {
        if (parameter.startsWith("user=") && parameter.length() > 5
            && parameter.substring(5).chars().allMatch(Character::isLetterOrDigit)) {
          return parameter.substring(5);
        }
      }
    }
    return "anonymous";
  }

  /** Whether the query asks the endpoint's dependency to fail: {@code fail=1}. */
  static boolean fails(@Nullable String query) {
    return query != null && ("&" + query + "&").contains("&fail=1&");
  }

  private static Boolean work(TimeSource time, long nanos, boolean fail) {
    if (fail) {
      throw new DependencyDownException();
    }
    if (nanos > 0) {
      try {
        time.sleep(nanos);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    return Boolean.TRUE;
  }

  /** The pretend dependency of an endpoint failed (the request asked for it). */
  private static final class DependencyDownException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    DependencyDownException() {
      super("dependency down (the request asked for it with fail=1)", null, false, false);
    }
  }

  @Override
  public void close() {
    server.stop(0);
    threads.shutdownNow();
  }
}
