package dev.guard.gateway;

import dev.guard.api.rule.Rule;
import dev.guard.api.rule.RuleSet;
import dev.guard.engine.GuardEngine;
import dev.guard.testing.Await;
import dev.guard.testkit.ManualClock;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * What every gateway test shares: one running gateway (one application context for all test
 * classes: same configuration) in front of the one {@link Backend}, its engine and clock, and a
 * JDK HTTP client. Each test starts with no rules and a fresh window.
 */
@SpringBootTest(classes = GatewayApp.class,
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
abstract class GatewayTest {

  /** HTTP/1.1: no upgrade attempt; generous timeouts, for a loaded machine (no timing asserted). */
  static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(30)).build();

  @LocalServerPort int port;
  @Autowired GuardEngine engine;
  @Autowired ManualClock clock;

  @DynamicPropertySource
  static void backend(DynamicPropertyRegistry properties) {
    properties.add("backend.port", Backend.INSTANCE::port);
  }

  @BeforeEach
  void noRulesAndAFreshWindow() {
    rules();
    clock.advance(Duration.ofMinutes(1));
  }

  void rules(Rule... rules) {
    engine.apply(RuleSet.of(List.of(rules)));
  }

  HttpResponse<String> get(String path, String... headers) throws IOException,
      InterruptedException {
    HttpRequest.Builder request = HttpRequest.newBuilder(
        URI.create("http://127.0.0.1:" + port + path)).timeout(Duration.ofSeconds(30));
    for (int i = 0; i < headers.length; i += 2) {
      request.header(headers[i], headers[i + 1]);
    }
    HttpResponse<String> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    // the gateway ends a request's calls as its response completes, which the client may see
    // first: what the next line asserts (statistics, an opened breaker) waits until they ended
    Await.until("every guarded call of " + path + " has ended", Duration.ofSeconds(30),
        () -> engine.resources().stream().allMatch(r -> engine.stats(r).concurrency() == 0));
    return response;
  }

  int status(String path, String... headers) throws IOException, InterruptedException {
    return get(path, headers).statusCode();
  }
}
