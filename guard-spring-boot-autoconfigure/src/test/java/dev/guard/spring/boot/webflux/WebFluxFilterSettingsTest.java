package dev.guard.spring.boot.webflux;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.PerValueRule;
import dev.guard.webapps.RunningApp;
import dev.guard.webapps.OrdersFluxApp;
import dev.guard.api.rule.RuleSet;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.http.MediaType;

/**
 * The WebFlux filter configured through the same {@code guard.web.*} properties as the MVC filter,
 * on Reactor Netty: rate-limit fields, include and exclude, a custom refusal, per-value arguments
 * from a header.
 */
@SpringBootTest(classes = OrdersFluxApp.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
        "spring.main.web-application-type=reactive",
        "guard.web.rate-limit-headers=true",
        "guard.web.include=/orders/**,/users/**",
        "guard.web.exclude=/users/admin",
        "guard.web.argument-headers=X-Api-Key",
        "guard.web.refusal.status=503",
        "guard.web.refusal.body={\"try\":\"later\"}",
        "guard.web.refusal.content-type=application/json",
    })
class WebFluxFilterSettingsTest extends RunningApp {

  static final String ORDERS = "GET /orders/{id}";


  @Test
  void rateLimitFields_countDown_andTheRefusalIsTheConfiguredOne() {
    engine.apply(RuleSet.of(List.of(FlowRule.qps(ORDERS, 2))));

    web.get().uri("/orders/1").exchange().expectStatus().isOk()
        .expectHeader().valueEquals("RateLimit-Policy", "\"resource\";q=2;w=1")
        .expectHeader().valueEquals("RateLimit", "\"resource\";r=1;t=1");
    web.get().uri("/orders/2").exchange().expectStatus().isOk()
        .expectHeader().valueEquals("RateLimit", "\"resource\";r=0;t=1");
    web.get().uri("/orders/3").exchange()
        .expectStatus().isEqualTo(503)
        .expectHeader().valueEquals("Retry-After", "1")
        .expectHeader().valueEquals("RateLimit", "\"resource\";r=0;t=1")
        .expectHeader().contentTypeCompatibleWith(MediaType.APPLICATION_JSON)
        .expectBody(String.class).isEqualTo("{\"try\":\"later\"}");
  }

  @Test
  void rateLimitFields_listTheQuotas_andReportTheOneClosestToRefusing() {
    engine.apply(RuleSet.of(List.of(FlowRule.qps(ORDERS, 100)
        .withQuota(2, Duration.ofMinutes(1)).withQuota(10_000, Duration.ofDays(1)))));
    String policies = "\"resource\";q=100;w=1, \"resource-60s\";q=2;w=60,"
        + " \"resource-86400s\";q=10000;w=86400";

    web.get().uri("/orders/1").exchange().expectStatus().isOk()
        .expectHeader().valueEquals("RateLimit-Policy", policies)
        .expectHeader().valueEquals("RateLimit", "\"resource-60s\";r=1;t=61");
    clock.advance(Duration.ofSeconds(30));
    web.get().uri("/orders/2").exchange().expectStatus().isOk()
        .expectHeader().valueEquals("RateLimit", "\"resource-60s\";r=0;t=31");
    web.get().uri("/orders/3").exchange()
        .expectStatus().isEqualTo(503)
        .expectHeader().valueEquals("Retry-After", "31")
        .expectHeader().valueEquals("RateLimit-Policy", policies)
        .expectHeader().valueEquals("RateLimit", "\"resource-60s\";r=0;t=31");
  }

  @Test
  void includeAndExclude_selectTheGuardedPaths() {
    engine.apply(RuleSet.of(List.of(FlowRule.qps("GET /health/live", 0),
        FlowRule.qps("GET /users/{name}", 0))));

    web.get().uri("/health/live").exchange().expectStatus().isOk();
    web.get().uri("/users/admin").exchange().expectStatus().isOk();
    web.get().uri("/users/alice").exchange().expectStatus().isEqualTo(503);
    assertThat(engine.stats("GET /health/live").totalPass()).isZero();
  }

  @Test
  void argumentHeaders_limitEachKey_andTheFieldsTellItsQuota() {
    engine.apply(RuleSet.of(List.of(PerValueRule.qps(ORDERS, 0, 100)
        .withQuota(1, Duration.ofMinutes(1)))));

    web.get().uri("/orders/1").header("X-Api-Key", "alice").exchange().expectStatus().isOk()
        .expectHeader().valueEquals("RateLimit-Policy", "\"value\";q=100;w=1, \"value-60s\";q=1;w=60")
        .expectHeader().valueEquals("RateLimit", "\"value-60s\";r=0;t=61");
    web.get().uri("/orders/2").header("X-Api-Key", "alice").exchange()
        .expectStatus().isEqualTo(503);
    web.get().uri("/orders/3").header("X-Api-Key", "bob").exchange().expectStatus().isOk();
  }
}
