package dev.guard.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.guard.engine.GuardEngine;
import dev.guard.testkit.ManualClock;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The demo's HTTP mode, served on a free loopback port and called over the network. */
class ShopServerTest {

  private final ManualClock clock = new ManualClock();
  private final GuardEngine engine = GuardEngine.builder().clock(clock).build();
  private final HttpClient client =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  @Test
  void search_overItsLimit_answers429WithJson() throws Exception {
    try (ShopServer server = ShopServer.start(engine, clock, 0)) {
      HttpRequest search = HttpRequest.newBuilder(server.base().resolve("/search"))
          .timeout(Duration.ofSeconds(10)).build();
      List<HttpResponse<String>> responses = new ArrayList<>();
      for (int i = 0; i < 51; i++) {
        responses.add(client.send(search, BodyHandlers.ofString()));
      }

      assertThat(responses).filteredOn(r -> r.statusCode() == 200).hasSize(50)
          .allSatisfy(r -> assertThat(r.body()).isEqualTo("{\"endpoint\":\"search\",\"result\":\"ok\"}"));
      HttpResponse<String> refused = responses.get(50);
      assertThat(refused.statusCode()).isEqualTo(429);
      assertThat(refused.body()).contains("\"protection\":\"flow\"", "\"resource\":\"search\"");
      assertThat(engine.stats("search").totalRefused()).isEqualTo(1);
      assertThat(engine.inboundStats().totalPass()).isEqualTo(51);
    }
  }

  @Test
  void profile_limitsEachUser_andAnswersTheRetryTime() throws Exception {
    try (ShopServer server = ShopServer.start(engine, clock, 0)) {
      List<Integer> noisy = new ArrayList<>();
      HttpResponse<String> refused = null;
      for (int i = 0; i < 6; i++) {
        HttpResponse<String> response = client.send(HttpRequest.newBuilder(
            server.base().resolve("/profile?user=noisy")).build(), BodyHandlers.ofString());
        noisy.add(response.statusCode());
        if (response.statusCode() == 429) {
          refused = response;
        }
      }
      HttpResponse<String> ann = client.send(HttpRequest.newBuilder(
          server.base().resolve("/profile?user=ann")).build(), BodyHandlers.ofString());

      assertThat(noisy).containsExactly(200, 200, 200, 200, 200, 429);
      assertThat(refused).isNotNull();
      assertThat(refused.body()).contains("\"protection\":\"per-value\"");
      assertThat(refused.headers().firstValue("Retry-After")).isPresent();
      assertThat(ann.body()).isEqualTo("{\"endpoint\":\"profile\",\"user\":\"ann\",\"result\":\"ok\"}");
    }
  }

  @Test
  void inventory_failingCalls_openTheBreaker_503WithRetryAfter() throws Exception {
    try (ShopServer server = ShopServer.start(engine, clock, 0)) {
      List<Integer> statuses = new ArrayList<>();
      for (int i = 0; i < 6; i++) {
        statuses.add(client.send(HttpRequest.newBuilder(
            server.base().resolve("/inventory?fail=1")).build(), BodyHandlers.ofString()).statusCode());
      }
      HttpResponse<String> open = client.send(HttpRequest.newBuilder(
          server.base().resolve("/inventory")).build(), BodyHandlers.ofString());

      assertThat(statuses).containsExactly(500, 500, 500, 500, 500, 503);
      assertThat(open.statusCode()).isEqualTo(503);
      assertThat(open.body()).contains("\"protection\":\"circuit-breaker\"");
      assertThat(open.headers().firstValue("Retry-After")).hasValue("2");
      clock.advance(Duration.ofSeconds(2));
      assertThat(client.send(HttpRequest.newBuilder(server.base().resolve("/inventory")).build(),
          BodyHandlers.ofString()).statusCode()).isEqualTo(200);
    }
  }

  @Test
  void fails_readsFailEquals1() {
    assertThat(ShopServer.fails("fail=1")).isTrue();
    assertThat(ShopServer.fails("call=3&fail=1")).isTrue();
    assertThat(ShopServer.fails("fail=10")).isFalse();
    assertThat(ShopServer.fails(null)).isFalse();
  }

  @Test
  void user_readsALettersAndDigitsParameter_elseAnonymous() {
    assertThat(ShopServer.user("call=1&user=ann")).isEqualTo("ann");
    assertThat(ShopServer.user("user=a%20b")).isEqualTo("anonymous");
    assertThat(ShopServer.user(null)).isEqualTo("anonymous");
  }

  @Test
  void introduce_showsTheEndpointsAndACurlCommand() throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ShopServer server = ShopServer.start(engine, clock, 0)) {
      server.introduce(new PrintStream(bytes, true, StandardCharsets.UTF_8));
      String text = bytes.toString(StandardCharsets.UTF_8);

      assertThat(text).contains("GET /search", "GET /checkout", "GET /payments", "GET /reports",
          "GET /profile",
          "curl -s -o /dev/null -w '%{http_code}\\n' \"" + server.base() + "/search?[1-100]\"");
    }
  }

  @Test
  void httpPort_defaultsTo8080_andReadsAnExplicitPort() {
    assertThat(Demo.httpPort(new String[] {"--http"})).isEqualTo(8080);
    assertThat(Demo.httpPort(new String[] {"--http", " 9090 "})).isEqualTo(9090);
  }

  @Test
  void httpPort_outOfRange_isRejected() {
    assertThatThrownBy(() -> Demo.httpPort(new String[] {"--http", "70000"}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("port must be from 0 to 65535, was 70000");
    assertThatThrownBy(() -> Demo.httpPort(new String[] {"--http", "1", "2"}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("usage: Demo --http [port], was --http 1 2");
  }
}
