package dev.guard.spring.boot.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.PerValueRule;
import dev.guard.webapps.RunningApp;
import dev.guard.webapps.OrdersMvcApp;
import dev.guard.api.rule.RuleSet;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * The Spring MVC filter configured through {@code guard.web.*}, in a real application on embedded
 * Tomcat: rate-limit fields on, only {@code /orders/**} and {@code /users/**} guarded except
 * {@code /users/admin}, a custom refusal without {@code Retry-After}, origins and per-value
 * arguments from headers.
 */
@SpringBootTest(classes = OrdersMvcApp.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {
        "guard.web.rate-limit-headers=true",
        "guard.web.include=/orders/**,/users/**",
        "guard.web.exclude=/users/admin",
        "guard.web.origin-header=X-Caller",
        "guard.web.argument-headers=X-Api-Key",
        "guard.web.entrance=shop",
        "guard.web.refusal.status=503",
        "guard.web.refusal.body=slow down",
        "guard.web.refusal.retry-after=false",
    })
class MvcFilterSettingsTest extends RunningApp {

  static final String ORDERS = "GET /orders/{id}";


  @Test
  void rateLimitFields_countDownOnAdmittedResponses_andStayOnTheRefusal() throws Exception {
    engine.apply(RuleSet.of(List.of(FlowRule.qps(ORDERS, 2))));

    HttpResponse<String> first = client.get("/orders/1");
    HttpResponse<String> second = client.get("/orders/2");
    HttpResponse<String> refused = client.get("/orders/3");

    assertThat(first.headers().firstValue("RateLimit-Policy")).contains("\"resource\";q=2;w=1");
    assertThat(first.headers().firstValue("RateLimit")).contains("\"resource\";r=1;t=1");
    assertThat(second.headers().firstValue("RateLimit")).contains("\"resource\";r=0;t=1");
    assertThat(refused.statusCode()).isEqualTo(503);
    assertThat(refused.headers().firstValue("RateLimit")).contains("\"resource\";r=0;t=1");
  }

  @Test
  void rateLimitFields_listTheQuotas_andReportTheOneClosestToRefusing() throws Exception {
    engine.apply(RuleSet.of(List.of(FlowRule.qps(ORDERS, 100)
        .withQuota(2, Duration.ofMinutes(1)).withQuota(10_000, Duration.ofDays(1)))));

    HttpResponse<String> first = client.get("/orders/1");
    clock.advance(Duration.ofSeconds(30));
    HttpResponse<String> second = client.get("/orders/2");
    HttpResponse<String> refused = client.get("/orders/3");

    assertThat(first.headers().firstValue("RateLimit-Policy")).contains("\"resource\";q=100;w=1,"
        + " \"resource-60s\";q=2;w=60, \"resource-86400s\";q=10000;w=86400");
    assertThat(first.headers().firstValue("RateLimit")).contains("\"resource-60s\";r=1;t=61");
    assertThat(second.headers().firstValue("RateLimit")).contains("\"resource-60s\";r=0;t=31");
    assertThat(refused.statusCode()).isEqualTo(503);
    assertThat(refused.headers().firstValue("RateLimit")).contains("\"resource-60s\";r=0;t=31");
  }

  @Test
  void refusal_isTheConfiguredResponse_withoutRetryAfter() throws Exception {
    engine.apply(RuleSet.of(List.of(FlowRule.qps(ORDERS, 0))));

    HttpResponse<String> refused = client.get("/orders/1");

    assertThat(refused.statusCode()).isEqualTo(503);
    assertThat(refused.body()).isEqualTo("slow down");
    assertThat(refused.headers().firstValue("Content-Type")).hasValueSatisfying(
        type -> assertThat(type).startsWith("text/plain"));
    assertThat(refused.headers().firstValue("Retry-After")).isEmpty();
  }

  @Test
  void includeAndExclude_selectTheGuardedPaths() throws Exception {
    engine.apply(RuleSet.of(List.of(FlowRule.qps("GET /health/live", 0),
        FlowRule.qps("GET /users/{name}", 0))));

    assertThat(client.get("/health/live").statusCode()).as("not included").isEqualTo(200);
    assertThat(client.get("/users/admin").statusCode()).as("excluded").isEqualTo(200);
    assertThat(client.get("/users/alice").statusCode()).as("included").isEqualTo(503);
    assertThat(engine.stats("GET /health/live").totalPass()).isZero();
    assertThat(engine.stats("GET /users/{name}").totalRefused()).isEqualTo(1);
  }

  @Test
  void originHeaderAndEntrance_comeFromTheProperties() throws Exception {
    engine.apply(RuleSet.of(List.of(FlowRule.qps(ORDERS, 10),
        FlowRule.qps(ORDERS, 1).withOrigin("mobile"))));

    assertThat(client.get("/orders/1", "X-Caller", "mobile").statusCode()).isEqualTo(200);
    HttpResponse<String> refused = client.get("/orders/2", "X-Caller", "mobile");
    HttpResponse<String> web = client.get("/orders/3", "X-Caller", "web");

    assertThat(refused.statusCode()).isEqualTo(503);
    assertThat(refused.headers().firstValue("RateLimit")).contains("\"origin\";r=0;t=1");
    assertThat(web.statusCode()).isEqualTo(200); // 10 less the two admitted; the refusal took none
    assertThat(web.headers().firstValue("RateLimit")).contains("\"resource\";r=8;t=1");
    assertThat(engine.entranceStats("shop")).isPresent();
  }

  @Test
  void argumentHeaders_limitEachKey_andTheFieldsTellItsQuota() throws Exception {
    engine.apply(RuleSet.of(List.of(PerValueRule.qps(ORDERS, 0, 100)
        .withQuota(1, Duration.ofMinutes(1)))));

    HttpResponse<String> alice = client.get("/orders/1", "X-Api-Key", "alice");
    HttpResponse<String> refused = client.get("/orders/2", "X-Api-Key", "alice");
    HttpResponse<String> bob = client.get("/orders/3", "X-Api-Key", "bob");

    assertThat(alice.headers().firstValue("RateLimit-Policy"))
        .contains("\"value\";q=100;w=1, \"value-60s\";q=1;w=60");
    assertThat(alice.headers().firstValue("RateLimit")).contains("\"value-60s\";r=0;t=61");
    assertThat(refused.statusCode()).isEqualTo(503);
    assertThat(bob.statusCode()).isEqualTo(200);
  }
}
