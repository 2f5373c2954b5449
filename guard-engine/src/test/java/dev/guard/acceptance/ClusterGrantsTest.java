package dev.guard.acceptance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.guard.api.RefusedException;
import dev.guard.api.rule.ClusterMode;
import dev.guard.api.rule.CircuitBreakerRule;
import dev.guard.api.rule.FlowRule;
import dev.guard.api.Entry;
import dev.guard.engine.GuardEngine;
import dev.guard.testkit.InMemoryTokenService;
import dev.guard.spi.TokenService;
import dev.guard.testkit.ManualClock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * docs/BEHAVIOUR.md, "Cluster flow control", "In the engine": what the token service granted to a
 * call that never ran is given back, and cluster concurrency rules hold the service's tokens.
 */
class ClusterGrantsTest {

  private final ManualClock clock = ManualClock.startingAt(1_000_000_000_000L);
  private final InMemoryTokenService service = new InMemoryTokenService(clock);

  private static final FlowRule QPS = FlowRule.qps("orders", 1)
      .withCluster(ClusterMode.global("orders").withWindow(10, Duration.ofSeconds(10)));

  private static final FlowRule CONCURRENCY = FlowRule.concurrency("export", 2)
      .withCluster(ClusterMode.global("export"));

  private GuardEngine engine(TokenService tokens) {
    return GuardEngine.builder().clock(clock).tokenService(tokens).build();
  }

  /** A breaker on the resource, forced open: it refuses every call the flow slot admitted. */
  private static void openBreaker(GuardEngine engine, String resource) {
    engine.breakers(resource).forEach(breaker -> breaker.forceOpen());
  }

  @Test
  void clusterGrant_refusedByALaterBreaker_isGivenBackToTheSharedWindow() {
    GuardEngine engine = engine(service.connect("shop"));
    engine.apply(engine.ruleSet().withRulesOf("orders", List.of(QPS, CircuitBreakerRule.errorCount("orders", 1))));
    openBreaker(engine, "orders");
    for (int i = 0; i < 20; i++) {
      assertThatThrownBy(() -> engine.resource("orders").enter().close())
          .isInstanceOf(RefusedException.Breaker.class);
    }
    TokenService other = service.connect("shop");
    int granted = 0;
    while (other.requestToken(QPS, 1, false).status() == TokenService.Result.Status.OK) {
      granted++;
    }
    assertThat(granted).as("the window holds none of the 20 refused calls").isEqualTo(10);
  }

  @Test
  void clusterConcurrency_holdsTokensAcrossEngines_andGivesThemBackAtExit() {
    GuardEngine a = engine(service.connect("shop"));
    GuardEngine b = engine(service.connect("shop"));
    a.apply(a.ruleSet().withRulesOf("export", List.of(CONCURRENCY)));
    b.apply(b.ruleSet().withRulesOf("export", List.of(CONCURRENCY)));
    Entry first = a.resource("export").enter();
    Entry second = a.resource("export").enter();
    assertThatThrownBy(() -> b.resource("export").enter()).isInstanceOf(RefusedException.Flow.class);
    second.close();
    Entry third = b.resource("export").enter();
    assertThatThrownBy(() -> a.resource("export").enter()).isInstanceOf(RefusedException.Flow.class);
    third.close();
    first.close();
    a.resource("export").enter().close();
    TokenService probe = service.connect("shop");
    assertThat(probe.acquireConcurrency(CONCURRENCY, 2).status())
        .as("every token was given back").isEqualTo(TokenService.Result.Status.OK);
  }

  @Test
  void clusterConcurrency_refusedByALaterBreaker_givesTheTokenBack() {
    GuardEngine engine = engine(service.connect("shop"));
    engine.apply(engine.ruleSet().withRulesOf("export", List.of(CONCURRENCY, CircuitBreakerRule.errorCount("export", 1))));
    openBreaker(engine, "export");
    for (int i = 0; i < 5; i++) {
      assertThatThrownBy(() -> engine.resource("export").enter().close())
          .isInstanceOf(RefusedException.Breaker.class);
    }
    assertThat(service.connect("shop").acquireConcurrency(CONCURRENCY, 2).status())
        .isEqualTo(TokenService.Result.Status.OK);
  }

  @Test
  void clusterConcurrency_withoutAnAnsweringService_fallsBackToTheLocalLimit() {
    GuardEngine engine = GuardEngine.builder().clock(clock).build(); // no token service
    engine.apply(engine.ruleSet().withRulesOf("export", List.of(CONCURRENCY)));
    Entry first = engine.resource("export").enter();
    Entry second = engine.resource("export").enter();
    assertThatThrownBy(() -> engine.resource("export").enter()).isInstanceOf(RefusedException.Flow.class);
    second.close();
    first.close();
  }
}
