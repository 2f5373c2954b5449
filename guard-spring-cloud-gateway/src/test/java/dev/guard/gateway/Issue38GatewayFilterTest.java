package dev.guard.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.rule.CircuitBreakerRule;
import dev.guard.api.rule.FlowRule;
import dev.guard.testing.Await;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The {@code Guard} gateway filter on a running gateway in front of a real backend: a route's
 * resource is its id, an API group's resource spans routes, refusals answer 429 or 503 with
 * {@code Retry-After} and the rate-limit fields, and the backend's 5xx count for the route's
 * breaker.
 */
class Issue38GatewayFilterTest extends GatewayTest {

  @Test
  void admittedRequest_isRouted_andCountedOnTheRouteAndItsGroup() throws Exception {
    HttpResponse<String> routed = get("/orders/7");

    assertThat(routed.statusCode()).isEqualTo(200);
    assertThat(routed.body()).isEqualTo("ok /orders/7");
    assertThat(engine.stats("orders").totalPass()).isEqualTo(1);
    assertThat(engine.stats("all-orders").totalPass()).isEqualTo(1);
    assertThat(engine.resources()).doesNotContain("GET /orders/7", "GET /orders/{id}");
  }

  @Test
  void routeOverItsLimit_answers429WithRetryAfterAndRateLimitFields() throws Exception {
    rules(FlowRule.qps("orders", 2));

    HttpResponse<String> first = get("/orders/1");
    get("/orders/2");
    HttpResponse<String> refused = get("/orders/3");

    assertThat(first.headers().firstValue("RateLimit-Policy")).contains("\"resource\";q=2;w=1");
    assertThat(first.headers().firstValue("RateLimit")).contains("\"resource\";r=1;t=1");
    assertThat(refused.statusCode()).isEqualTo(429);
    assertThat(refused.headers().firstValue("Retry-After")).contains("1");
    assertThat(refused.headers().firstValue("RateLimit")).contains("\"resource\";r=0;t=1");
    assertThat(refused.body()).isEqualTo("{\"status\":429,\"error\":\"Too Many Requests\","
        + "\"protection\":\"flow\",\"resource\":\"orders\"}");
    assertThat(engine.stats("orders").totalRefused()).isEqualTo(1);
    clock.advance(Duration.ofSeconds(1));
    assertThat(status("/orders/4")).isEqualTo(200);
  }

  @Test
  void apiGroup_spansTwoRoutes_andTheyShareItsLimit() throws Exception {
    rules(FlowRule.qps("all-orders", 3));

    assertThat(status("/orders/1")).isEqualTo(200);
    assertThat(status("/v2/orders/1")).isEqualTo(200);
    assertThat(status("/orders/2")).isEqualTo(200);
    HttpResponse<String> refused = get("/v2/orders/2");

    assertThat(refused.statusCode()).isEqualTo(429);
    assertThat(refused.body()).contains("\"resource\":\"all-orders\"");
    assertThat(engine.stats("orders").totalPass()).isEqualTo(2);
    // the route admitted the request the group refused; it exits with no outcome of its own
    assertThat(engine.stats("orders-v2").totalPass()).isEqualTo(2);
    assertThat(engine.stats("orders-v2").concurrency()).isZero();
    assertThat(engine.stats("all-orders").totalRefused()).isEqualTo(1);
  }

  @Test
  void javaDslRoute_isGuardedLikeAConfiguredOne() throws Exception {
    rules(FlowRule.qps("dsl", 1));

    assertThat(get("/dsl/a").body()).isEqualTo("ok /dsl/a");
    assertThat(status("/dsl/b")).isEqualTo(429);
  }

  @Test
  void backendErrors_countForTheRoute_andAnOpenBreakerAnswers503() throws Exception {
    rules(CircuitBreakerRule.errorCount("fail", 0).withMinCalls(1));

    assertThat(status("/fail/once")).isEqualTo(500);
    Await.until("the backend's 500 opens the breaker of route fail", Duration.ofSeconds(30),
        () -> engine.stats("fail").totalException() == 1);
    HttpResponse<String> refused = get("/fail/again");

    assertThat(refused.statusCode()).isEqualTo(503);
    assertThat(refused.headers().firstValue("Retry-After")).isPresent();
    assertThat(refused.body()).isEqualTo("{\"status\":503,\"error\":\"Service Unavailable\","
        + "\"protection\":\"circuit-breaker\",\"resource\":\"fail\"}");
  }
}
