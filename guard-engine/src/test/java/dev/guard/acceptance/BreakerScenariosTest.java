package dev.guard.acceptance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.CircuitBreaker;
import dev.guard.api.rule.CircuitBreakerRule;
import dev.guard.testsupport.Scenario;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The circuit-breaker scenarios A10 to A14 of the reference model, on tumbling windows (one
 * bucket), the reference model's window; the sliding default is pinned by its own tests.
 */
class BreakerScenariosTest {

  static CircuitBreakerRule rule(CircuitBreakerRule.Strategy strategy, double threshold, long slowMs, int minCalls,
      long windowMs, long openForMs) {
    return new CircuitBreakerRule("R", strategy, threshold,
        strategy == CircuitBreakerRule.Strategy.SLOW_CALL_RATIO ? Duration.ofMillis(slowMs) : null,
        minCalls, Duration.ofMillis(windowMs), 1, Duration.ofMillis(openForMs), 1, null);
  }

  private static CircuitBreaker.State state(Scenario s) {
    return s.engine.breakers("R").get(0).state();
  }

  @Test
  void a10_slowCallRatioOfOne_opensWhenEveryCallIsSlow_andProbesBackToClosed() {
    Scenario s = new Scenario();
    s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(rule(CircuitBreakerRule.Strategy.SLOW_CALL_RATIO, 1.0, 10, 3, 5000, 5000))));

    assertThat(s.at(0).call("R", 20, false)).isEqualTo("P");
    assertThat(s.at(20).call("R", 20, false)).isEqualTo("P");
    assertThat(state(s)).isEqualTo(CircuitBreaker.State.CLOSED);
    assertThat(s.at(40).call("R", 20, false)).isEqualTo("P");
    assertThat(state(s)).isEqualTo(CircuitBreaker.State.OPEN);
    assertThat(s.at(60).call("R")).isEqualTo("B");
    assertThat(s.at(1060).call("R")).isEqualTo("B");
    assertThat(s.at(5059).call("R")).isEqualTo("B");
    assertThat(s.at(5060).call("R", 20, false)).isEqualTo("P");
    assertThat(state(s)).isEqualTo(CircuitBreaker.State.OPEN);
    assertThat(s.at(5080).call("R")).isEqualTo("B");
    assertThat(s.at(10079).call("R")).isEqualTo("B");
    assertThat(s.at(10080).call("R", 5, false)).isEqualTo("P");
    assertThat(state(s)).isEqualTo(CircuitBreaker.State.CLOSED);
    assertThat(s.at(10085).call("R", 50, false)).isEqualTo("P");
    assertThat(state(s)).as("one slow call of three needed").isEqualTo(CircuitBreaker.State.CLOSED);
  }

  @Test
  void a11_slowCallRatio_equalRtIsNotSlow_andEqualRatioDoesNotOpen() {
    Scenario s = new Scenario();
    s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(rule(CircuitBreakerRule.Strategy.SLOW_CALL_RATIO, 0.5, 50, 5, 10_000, 3000))));
    StringBuilder results = new StringBuilder();
    StringBuilder states = new StringBuilder();

    for (long rt : new long[] {60, 60, 50, 10, 10, 51, 51}) {
      results.append(s.call("R", rt, false));
      states.append(state(s).name().charAt(0));
    }

    assertThat(results).hasToString("PPPPPPP");
    assertThat(states).hasToString("CCCCCCO");
    assertThat(s.call("R")).isEqualTo("B");
  }

  @Test
  void a12_errorRatio_probeClosesAndResetsTheWindow() {
    Scenario s = new Scenario();
    s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(rule(CircuitBreakerRule.Strategy.ERROR_RATIO, 0.5, 0, 4, 10_000, 2000))));

    s.at(0);
    assertThat(s.call("R", 1, false) + s.call("R", 1, false) + s.call("R", 1, true)
        + s.call("R", 1, true)).isEqualTo("PPPP");
    assertThat(state(s)).as("2/4 = 0.5 is not above 0.5").isEqualTo(CircuitBreaker.State.CLOSED);
    assertThat(s.at(4).call("R", 1, true)).isEqualTo("P");
    assertThat(state(s)).isEqualTo(CircuitBreaker.State.OPEN);
    assertThat(s.at(5).call("R", 1, false)).isEqualTo("B");
    assertThat(s.at(2004).call("R", 1, false)).isEqualTo("B");
    assertThat(s.at(2005).call("R", 1, false)).isEqualTo("P");
    assertThat(state(s)).isEqualTo(CircuitBreaker.State.CLOSED);
    assertThat(s.call("R", 1, true) + s.call("R", 1, true) + s.call("R", 1, true))
        .isEqualTo("PPP");
    assertThat(state(s)).as("3 calls < 4: the probe was not kept").isEqualTo(CircuitBreaker.State.CLOSED);
    assertThat(s.at(2009).call("R", 1, true)).isEqualTo("P");
    assertThat(state(s)).isEqualTo(CircuitBreaker.State.OPEN);
  }

  @Test
  void a13_errorCount_tumblingWindowForgetsErrorsAcrossItsEdge() {
    Scenario s = new Scenario();
    s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(rule(CircuitBreakerRule.Strategy.ERROR_COUNT, 2, 0, 1, 1000, 1000))));
    StringBuilder states = new StringBuilder();

    s.at(900);
    for (int i = 0; i < 2; i++) {
      s.call("R", 0, true);
      states.append(state(s).name().charAt(0));
    }
    s.at(1000);
    for (int i = 0; i < 3; i++) {
      s.call("R", 0, true);
      states.append(state(s).name().charAt(0));
    }

    assertThat(states).hasToString("CCCCO");
    assertThat(s.call("R", 0, false)).isEqualTo("B");
  }

  @Test
  void a14_aProbeRefusedByALaterBreaker_reopensWithoutMovingItsRetry() {
    Scenario s = new Scenario();
    CircuitBreakerRule first = new CircuitBreakerRule("R", CircuitBreakerRule.Strategy.SLOW_CALL_RATIO, 0.8,
        Duration.ofMillis(50), 1, Duration.ofSeconds(20), 1, Duration.ofSeconds(2), 1, null);
    CircuitBreakerRule second = first.withOpenFor(Duration.ofSeconds(4));
    s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(first, second)));

    assertThat(s.at(0).call("R", 100, false)).isEqualTo("P");
    assertThat(s.engine.breakers("R")).extracting(b -> b.state())
        .containsExactly(CircuitBreaker.State.OPEN, CircuitBreaker.State.OPEN);
    assertThat(s.at(3100).calls("R", 3)).isEqualTo("BBB");
    assertThat(s.engine.breakers("R")).extracting(b -> b.state())
        .containsExactly(CircuitBreaker.State.OPEN, CircuitBreaker.State.OPEN);
    assertThat(s.engine.breakers("R").get(0).retryAfter()).isZero();
    assertThat(s.at(6100).call("R", 1, false)).isEqualTo("P");
    assertThat(s.engine.breakers("R")).extracting(b -> b.state())
        .containsExactly(CircuitBreaker.State.CLOSED, CircuitBreaker.State.CLOSED);
  }
}
