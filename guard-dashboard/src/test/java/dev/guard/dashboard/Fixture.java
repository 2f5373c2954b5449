package dev.guard.dashboard;

import dev.guard.api.RefusedException;
import dev.guard.api.Entry;
import dev.guard.engine.GuardEngine;
import dev.guard.testkit.InMemoryTokenService;
import dev.guard.testkit.ManualClock;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Base64;
import java.util.function.UnaryOperator;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * An engine on a manual clock with a dashboard served on a free loopback port, traffic helpers
 * and a JSON client. Engine time starts at 0; {@link #second} moves it to a whole second.
 */
final class Fixture implements AutoCloseable {

  static final String TOKEN = "test-token-0123456789";
  static final ObjectMapper JSON = new ObjectMapper();

  final ManualClock clock;
  /** Shares cluster limits between this engine and any other client a test connects. */
  final InMemoryTokenService tokens;
  final GuardEngine engine;
  final GuardDashboard.Server server;
  final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  Fixture(UnaryOperator<GuardDashboard.Builder> options) {
    this(new ManualClock(), options);
  }

  /** A fixture on the given clock (whose reading, as nanoseconds since the epoch, is its wall time). */
  Fixture(ManualClock clock, UnaryOperator<GuardDashboard.Builder> options) {
    this.clock = clock;
    tokens = new InMemoryTokenService(clock);
    engine = GuardEngine.builder().clock(clock).tokenService(tokens.connect("shop")).build();
    server = options.apply(GuardDashboard.builder(engine)).build().start();
  }

  static Fixture withToken() {
    return new Fixture(builder -> builder.accessToken(TOKEN));
  }

  /** Calls a resource {@code n} times now; returns how many were admitted. */
  int call(String resource, int n, Object... args) {
    int passed = 0;
    for (int i = 0; i < n; i++) {
      try (Entry ignored = engine.resource(resource).enter(args)) {
        passed++;
      } catch (RefusedException refused) {
        // counted as refused by the engine
      }
    }
    return passed;
  }

  /** Moves engine time forward by whole seconds. */
  void advanceSeconds(int seconds) {
    clock.advance(Duration.ofSeconds(seconds));
  }

  URI uri(String path) {
    return server.uri().resolve(path);
  }

  HttpRequest.Builder request(String path) {
    return HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(10));
  }

  HttpRequest.Builder authorized(String path) {
    return request(path).header("Authorization", "Bearer " + TOKEN);
  }

  static String basic(String user, String password) {
    return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes());
  }

  HttpResponse<String> send(HttpRequest.Builder request) {
    try {
      return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    } catch (IOException failed) {
      throw new UncheckedIOException(failed);
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(interrupted);
    }
  }

  /** GET with the token; the body as JSON, failing unless 200. */
  JsonNode get(String path) {
    HttpResponse<String> response = send(authorized(path));
    if (response.statusCode() != 200) {
      throw new AssertionError(path + " answered " + response.statusCode() + ": " + response.body());
    }
    return json(response.body());
  }

  /** PUT of a rule document with the token and the dashboard's header. */
  HttpResponse<String> putRules(String document) {
    return send(authorized("api/rules").header("X-Guard-Dashboard", "1")
        .header("Content-Type", "application/json")
        .PUT(HttpRequest.BodyPublishers.ofString(document)));
  }

  static JsonNode json(String body) {
    try {
      return JSON.readTree(body);
    } catch (JacksonException malformed) {
      throw new AssertionError("not JSON: " + body, malformed);
    }
  }

  @Override
  public void close() {
    server.close();
  }
}
