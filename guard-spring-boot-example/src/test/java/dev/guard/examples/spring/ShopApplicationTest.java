package dev.guard.examples.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.engine.GuardEngine;
import dev.guard.testkit.ManualClock;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;

/**
 * The example as it ships (its {@code application.yml}), on embedded Tomcat, with an engine on a
 * manual clock: the README's curl lines give five 200s, then 429s with the rate-limit fields; and
 * each API key may place three orders a minute.
 */
// the same configuration as Issue39Jackson3Test, so that both run in one application context
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    classes = {ShopApplication.class, ShopApplicationTest.StoppedClock.class})
class ShopApplicationTest {

  static final ManualClock CLOCK = new ManualClock();

  @TestConfiguration
  static class StoppedClock {
    @Bean(destroyMethod = "close")
    GuardEngine guardEngine() {
      return GuardEngine.builder().clock(CLOCK).build();
    }
  }

  @LocalServerPort int port;

  private final HttpClient client = HttpClient.newBuilder()
      .version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(10)).build();

  private HttpResponse<String> get(String path) throws Exception {
    return client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
        .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> placeOrder(String apiKey) throws Exception {
    CLOCK.advance(Duration.ofSeconds(1)); // apart from the rule of two orders a second
    return client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/orders"))
        .header("X-Api-Key", apiKey).POST(HttpRequest.BodyPublishers.ofString("book"))
        .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void eachApiKey_placesThreeOrdersAMinute() throws Exception {
    for (int i = 1; i <= 3; i++) {
      assertThat(placeOrder("alice").statusCode()).as("order %d", i).isEqualTo(201);
    }
    HttpResponse<String> refused = placeOrder("alice");

    assertThat(refused.statusCode()).isEqualTo(429);
    assertThat(refused.body()).contains("\"protection\":\"per-value\"");
    assertThat(refused.headers().firstValue("RateLimit")).contains("\"value-60s\";r=0;t=58");
    assertThat(placeOrder("bob").statusCode()).as("another key").isEqualTo(201);
  }

  @Test
  void ordersGetFiveAnswersASecond_thenTooManyRequests() throws Exception {
    for (int i = 1; i <= 5; i++) {
      HttpResponse<String> admitted = get("/orders/" + i);
      assertThat(admitted.statusCode()).isEqualTo(200);
      assertThat(admitted.headers().firstValue("RateLimit-Policy")).contains("\"resource\";q=5;w=1");
      assertThat(admitted.headers().firstValue("RateLimit"))
          .contains("\"resource\";r=" + (5 - i) + ";t=1");
    }
    HttpResponse<String> refused = get("/orders/6");

    assertThat(refused.statusCode()).isEqualTo(429);
    assertThat(refused.headers().firstValue("Retry-After")).contains("1");
    assertThat(refused.body()).contains("\"resource\":\"GET /orders/{id}\"");
    for (int i = 0; i < 10; i++) {
      assertThat(get("/ping").statusCode()).as("excluded").isEqualTo(200);
    }
  }
}
