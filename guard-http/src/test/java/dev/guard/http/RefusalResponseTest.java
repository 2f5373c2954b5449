package dev.guard.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.guard.api.RefusedException;
import dev.guard.api.rule.CircuitBreakerRule;
import dev.guard.engine.GuardEngine;
import dev.guard.testkit.ManualClock;
import java.util.List;
import dev.guard.api.rule.PerValueRule;
import dev.guard.api.rule.FlowRule;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class RefusalResponseTest {

  @Test
  void of_flowRefusal_is429WithJson() {
    HttpInbound.RefusalResponse response =
        HttpInbound.RefusalResponse.of(new RefusedException.Flow("GET /a", FlowRule.qps("GET /a", 1)));

    assertThat(response.status()).isEqualTo(429);
    assertThat(response.contentType()).isEqualTo("application/json");
    assertThat(response.body()).isEqualTo("{\"status\":429,\"error\":\"Too Many Requests\","
        + "\"protection\":\"flow\",\"resource\":\"GET /a\"}");
    assertThat(response.retryAfter()).isNull();
  }

  @Test
  void of_breakerRefusal_is503_withTheTimeUntilTheProbe() {
    GuardEngine engine = GuardEngine.builder().clock(new ManualClock()).build();
    engine.apply(engine.ruleSet().withRulesOf("GET /a", List.of(
        CircuitBreakerRule.errorCount("GET /a", 1).withOpenFor(Duration.ofMillis(2500)))));
    engine.breakers("GET /a").get(0).forceOpen();
    assertThat(engine.breakers("GET /a").get(0).retryAfter()).isPositive();
    RefusedException.Breaker refused = catchThrowableOfType(RefusedException.Breaker.class,
        () -> engine.resource("GET /a").enter().close());

    HttpInbound.RefusalResponse response = HttpInbound.RefusalResponse.of(refused);

    assertThat(response.status()).isEqualTo(503);
    assertThat(response.body()).contains("\"error\":\"Service Unavailable\"",
        "\"protection\":\"circuit-breaker\"");
    assertThat(response.retryAfter()).isEqualTo(refused.retryAfter().orElseThrow());
  }

  @Test
  void of_perValueRefusal_is429WithItsRetryTime() {
    HttpInbound.RefusalResponse response = HttpInbound.RefusalResponse.of(new RefusedException.PerValue(
        "GET /a", PerValueRule.qps("GET /a", 0, 5), 0, "user-7", 1_200_000_000L));

    assertThat(response.status()).isEqualTo(429);
    assertThat(response.body()).contains("\"protection\":\"per-value\"")
        .doesNotContain("user-7");
    assertThat(response.retryAfterHeader()).isEqualTo("2");
  }

  @Test
  void of_escapesTheResourceForJson() {
    String resource = "GET /a\"b\\c\u0001";
    HttpInbound.RefusalResponse response =
        HttpInbound.RefusalResponse.of(new RefusedException.Flow(resource, FlowRule.qps(resource, 1)));

    assertThat(response.body()).contains("\"resource\":\"GET /a\\\"b\\\\c\\u0001\"");
  }

  @Test
  void retryAfterHeader_roundsUpToWholeSeconds() {
    assertThat(new HttpInbound.RefusalResponse(429, "text/plain", "", Duration.ofMillis(1)).retryAfterHeader())
        .isEqualTo("1");
    assertThat(new HttpInbound.RefusalResponse(429, "text/plain", "", Duration.ofSeconds(3)).retryAfterHeader())
        .isEqualTo("3");
    assertThat(new HttpInbound.RefusalResponse(429, "text/plain", "", Duration.ZERO).retryAfterHeader())
        .isEqualTo("0");
    assertThat(new HttpInbound.RefusalResponse(429, "text/plain", "", null).retryAfterHeader()).isNull();
  }

  @Test
  void constructor_rejectsBadValues_namingTheField() {
    assertThatThrownBy(() -> new HttpInbound.RefusalResponse(99, "text/plain", "", null))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("status");
    assertThatThrownBy(() -> new HttpInbound.RefusalResponse(429, " ", "", null))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("contentType");
    assertThatThrownBy(() -> new HttpInbound.RefusalResponse(429, "text/plain", "", Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("retryAfter");
  }
}
