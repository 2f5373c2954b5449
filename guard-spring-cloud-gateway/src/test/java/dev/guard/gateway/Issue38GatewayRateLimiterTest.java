package dev.guard.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.PerValueRule;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The gateway's own {@code RequestRateLimiter} filter with guard as its rate limiter ({@code
 * rate-limiter: "#{@guardRateLimiter}"}) on the route {@code limited}: the route's rules limit it,
 * per-value rules each key the key resolver gives (the {@code X-Api-Key} header here).
 */
class Issue38GatewayRateLimiterTest extends GatewayTest {

  @Test
  void perKeyRule_limitsEachResolvedKey_with429AndRetryAfter() throws Exception {
    rules(PerValueRule.qps("limited", 0, 2));

    assertThat(status("/limited/a", "X-Api-Key", "alice")).isEqualTo(200);
    HttpResponse<String> second = get("/limited/a", "X-Api-Key", "alice");
    HttpResponse<String> refused = get("/limited/a", "X-Api-Key", "alice");

    assertThat(second.body()).isEqualTo("ok /limited/a");
    assertThat(second.headers().firstValue("RateLimit").orElseThrow()).startsWith("\"value\";r=0;t=");
    assertThat(refused.statusCode()).isEqualTo(429);
    long retryAfter = Long.parseLong(refused.headers().firstValue("Retry-After").orElseThrow());
    assertThat(retryAfter).isBetween(1L, 2L);
    assertThat(status("/limited/a", "X-Api-Key", "bob")).isEqualTo(200);
    clock.advance(Duration.ofSeconds(retryAfter));
    assertThat(status("/limited/a", "X-Api-Key", "alice")).isEqualTo(200);
  }

  @Test
  void routeRule_limitsAllKeysTogether() throws Exception {
    rules(FlowRule.qps("limited", 1));

    assertThat(status("/limited/a", "X-Api-Key", "alice")).isEqualTo(200);
    assertThat(status("/limited/a", "X-Api-Key", "bob")).isEqualTo(429);
    assertThat(engine.stats("limited").totalPass()).isEqualTo(1);
    assertThat(engine.stats("limited").concurrency()).isZero();
  }
}
