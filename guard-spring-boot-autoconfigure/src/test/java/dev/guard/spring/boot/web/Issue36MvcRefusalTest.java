package dev.guard.spring.boot.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.CircuitBreaker;
import dev.guard.api.Entry;
import dev.guard.api.rule.CircuitBreakerRule;
import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.RuleSet;
import dev.guard.webapps.Client;
import dev.guard.webapps.OrdersMvcApp;
import dev.guard.webapps.Quotes;
import dev.guard.webapps.RunningApp;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * Issue 36: a refusal of a {@code @Guarded} method that escapes a Spring MVC controller was
 * answered 500; it is answered as guard's filter answers a refusal, on embedded Tomcat.
 */
@SpringBootTest(classes = OrdersMvcApp.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class Issue36MvcRefusalTest extends RunningApp {

  @Test
  void openBreaker_refusalEscapingTheController_is503WithTheRefusalBody() throws Exception {
    openTheBreaker();

    HttpResponse<String> refused = client.get("/quotes/tea");

    assertThat(refused.statusCode()).isEqualTo(503);
    assertThat(refused.headers().firstValue("Retry-After")).contains("10");
    assertThat(refused.headers().firstValue("Content-Type")).hasValueSatisfying(
        type -> assertThat(type).startsWith("application/json"));
    assertThat(refused.body()).isEqualTo("{\"status\":503,\"error\":\"Service Unavailable\","
        + "\"protection\":\"circuit-breaker\",\"resource\":\"quote\"}");
    Client.awaitUntil(() -> engine.stats("GET /quotes/{item}").concurrency() == 0);
    assertThat(engine.stats("GET /quotes/{item}").totalException()).as("errors of the request")
        .isZero();
  }

  @Test
  void flowLimit_refusalEscapingTheController_is429WithRetryAfter() throws Exception {
    engine.apply(RuleSet.of(List.of(FlowRule.qps(Quotes.RESOURCE, 1))));

    assertThat(client.get("/quotes/tea").body()).isEqualTo("quote tea");
    HttpResponse<String> refused = client.get("/quotes/coffee");

    assertThat(refused.statusCode()).isEqualTo(429);
    assertThat(refused.headers().firstValue("Retry-After")).contains("1");
    assertThat(refused.body()).isEqualTo("{\"status\":429,\"error\":\"Too Many Requests\","
        + "\"protection\":\"flow\",\"resource\":\"quote\"}");
  }

  @Test
  void openBreaker_refusalOfAnAsynchronousHandler_is503_andNoErrorOfTheRequest() throws Exception {
    openTheBreaker();

    HttpResponse<String> refused = client.get("/async-quotes/tea");

    assertThat(refused.statusCode()).isEqualTo(503);
    assertThat(refused.headers().firstValue("Retry-After")).contains("10");
    assertThat(refused.body()).isEqualTo("{\"status\":503,\"error\":\"Service Unavailable\","
        + "\"protection\":\"circuit-breaker\",\"resource\":\"quote\"}");
    Client.awaitUntil(() -> engine.stats("GET /async-quotes/{item}").concurrency() == 0);
    assertThat(engine.stats("GET /async-quotes/{item}").totalException()).isZero();
  }

  @Test
  void asynchronousHandler_admitted_answersItsValue() throws Exception {
    assertThat(client.get("/async-quotes/tea").body()).isEqualTo("quote tea");
  }

  /** Opens the breaker of {@code quote} for ten seconds by one failed call. */
  private void openTheBreaker() {
    engine.apply(RuleSet.of(List.of(
        CircuitBreakerRule.errorCount(Quotes.RESOURCE, 0).withMinCalls(1))));
    try (Entry call = engine.resource(Quotes.RESOURCE).enter()) {
      call.recordError(new IllegalStateException("quotes are down"));
    }
    assertThat(engine.breakers(Quotes.RESOURCE)).singleElement()
        .satisfies(breaker -> assertThat(breaker.state()).isEqualTo(CircuitBreaker.State.OPEN));
  }
}
