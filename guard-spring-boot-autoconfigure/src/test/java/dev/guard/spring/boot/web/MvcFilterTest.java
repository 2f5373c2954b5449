package dev.guard.spring.boot.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.rule.FlowRule;
import dev.guard.webapps.Client;
import dev.guard.webapps.RunningApp;
import dev.guard.webapps.OrdersMvcApp;
import dev.guard.api.rule.RuleSet;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * The Spring MVC filter with its defaults, in a real application on embedded Tomcat: resources
 * named after handler patterns, 200s then 429s with {@code Retry-After}, no rate-limit fields.
 */
@SpringBootTest(classes = OrdersMvcApp.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class MvcFilterTest extends RunningApp {

  static final String ORDERS = "GET /orders/{id}";


  @Test
  void twoIds_enterOneResource_200sThen429WithRetryAfter() throws Exception {
    engine.apply(RuleSet.of(List.of(FlowRule.qps(ORDERS, 2))));

    HttpResponse<String> first = client.get("/orders/1");
    HttpResponse<String> second = client.get("/orders/2");
    HttpResponse<String> refused = client.get("/orders/3");

    assertThat(first.statusCode()).isEqualTo(200);
    assertThat(first.body()).isEqualTo("order 1");
    assertThat(second.statusCode()).isEqualTo(200);
    assertThat(refused.statusCode()).isEqualTo(429);
    assertThat(refused.headers().firstValue("Retry-After")).contains("1");
    assertThat(refused.headers().firstValue("Content-Type")).hasValueSatisfying(
        type -> assertThat(type).startsWith("application/json"));
    assertThat(refused.body()).isEqualTo("{\"status\":429,\"error\":\"Too Many Requests\","
        + "\"protection\":\"flow\",\"resource\":\"GET /orders/{id}\"}");
    assertThat(refused.headers().firstValue("RateLimit")).as("off by default").isEmpty();

    clock.advance(Duration.ofSeconds(1));
    assertThat(client.get("/orders/4").statusCode()).isEqualTo(200);
  }

  @Test
  void resource_isTheHandlerPattern_notACleanedPath() throws Exception {
    client.get("/users/alice");
    client.get("/users/bob");

    assertThat(engine.resources()).contains("GET /users/{name}")
        .doesNotContain("GET /users/alice", "GET /users/bob");
    assertThat(engine.stats("GET /users/{name}").totalPass()).isEqualTo(2);
  }

  @Test
  void resource_ofARouterFunction_isItsPattern() throws Exception {
    assertThat(client.get("/shelves/top").body()).isEqualTo("shelf top");
    assertThat(client.get("/shelves/bottom").body()).isEqualTo("shelf bottom");

    assertThat(engine.stats("GET /shelves/{shelf}").totalPass()).isEqualTo(2);
  }

  @Test
  void requests_enterAsInboundCalls_andExitWhenTheResponseIsDone() throws Exception {
    client.get("/orders/7");

    assertThat(engine.entranceStats("http")).isPresent();
    assertThat(engine.stats(ORDERS).totalPass()).isEqualTo(1);
    Client.awaitUntil(() -> engine.stats(ORDERS).concurrency() == 0); // exits once the response is done
  }

  @Test
  void requestWithoutHandler_isNamedByItsCleanedPath() throws Exception {
    HttpResponse<String> missing = client.get("/nothing/here/1");

    assertThat(missing.statusCode()).isEqualTo(404);
    assertThat(engine.resources()).contains("GET /nothing/here/{id}");
  }
}
