package dev.guard.acceptance;

import static dev.guard.acceptance.BreakerScenariosTest.rule;
import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.CircuitBreaker;
import dev.guard.api.rule.CircuitBreakerRule;
import dev.guard.spi.EngineListener;
import dev.guard.engine.GuardEngine;
import dev.guard.testsupport.Scenario;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

/** Breaker state changes reach the engine's listeners, in order, with their trigger and time. */
class BreakerEventsTest {

  private final List<CircuitBreaker.Transition> events = new ArrayList<>();
  private final Scenario s = new Scenario(GuardEngine.builder().listener(new EngineListener() {
    @Override
    public void onBreakerStateChanged(CircuitBreaker.Transition transition) {
      events.add(transition);
    }
  }));

  private static String describe(CircuitBreaker.Transition t) {
    return t.from() + "->" + t.to() + " " + t.trigger() + " @" + (t.engineTimeMs() - Scenario.T0);
  }

  @Test
  void lifecycle_opensProbesFailsProbesClosesAndOpens_inThatOrder() {
    CircuitBreakerRule rule = rule(CircuitBreakerRule.Strategy.ERROR_RATIO, 0.5, 0, 4, 10_000, 2000);
    s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(rule)));

    s.at(0);
    s.call("R", 1, false);
    s.call("R", 1, false);
    s.call("R", 1, true);
    s.call("R", 1, true);
    s.call("R", 1, true);
    s.at(2005).call("R", 1, true);
    s.at(4006).call("R", 1, false);
    s.call("R", 0, true);
    s.call("R", 0, true);
    s.call("R", 0, true);
    s.call("R", 0, true);

    assertThat(events).extracting(BreakerEventsTest::describe).containsExactly(
        "CLOSED->OPEN OptionalDouble[0.6] @5",
        "OPEN->HALF_OPEN OptionalDouble.empty @2005",
        "HALF_OPEN->OPEN OptionalDouble[1.0] @2006",
        "OPEN->HALF_OPEN OptionalDouble.empty @4006",
        "HALF_OPEN->CLOSED OptionalDouble.empty @4007",
        "CLOSED->OPEN OptionalDouble[1.0] @4007");
    assertThat(events).allSatisfy(t -> {
      assertThat(t.resource()).isEqualTo("R");
      assertThat(t.rule()).isEqualTo(rule);
    });
  }

  @Test
  void errorCount_reportsTheCountThatOpened() {
    s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(rule(CircuitBreakerRule.Strategy.ERROR_COUNT, 2, 0, 1, 10_000, 1000))));

    s.call("R", 0, true);
    s.call("R", 0, true);
    s.call("R", 0, true);

    assertThat(events).singleElement().satisfies(t -> {
      assertThat(t.to()).isEqualTo(CircuitBreaker.State.OPEN);
      assertThat(t.trigger()).isEqualTo(OptionalDouble.of(3));
    });
  }

  @Test
  void probeRefusedByALaterBreaker_isReportedAsAFailedProbe() {
    CircuitBreakerRule first = new CircuitBreakerRule("R", CircuitBreakerRule.Strategy.ERROR_COUNT, 0, null, 1,
        Duration.ofSeconds(20), 1, Duration.ofSeconds(2), 1, null);
    s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(first, first.withOpenFor(Duration.ofSeconds(4)))));
    s.at(0).call("R", 0, true);
    events.clear();

    s.at(3000).call("R");

    assertThat(events).extracting(BreakerEventsTest::describe).containsExactly(
        "OPEN->HALF_OPEN OptionalDouble.empty @3000",
        "HALF_OPEN->OPEN OptionalDouble[1.0] @3000");
  }

  @Test
  void throwingListener_doesNotBreakTheCall() {
    Scenario noisy = new Scenario(GuardEngine.builder().listener(new EngineListener() {
      @Override
      public void onBreakerStateChanged(CircuitBreaker.Transition transition) {
        throw new IllegalStateException("listener bug");
      }
    }));
    noisy.engine.apply(noisy.engine.ruleSet().withRulesOf("R", List.of(rule(CircuitBreakerRule.Strategy.ERROR_COUNT, 0, 0, 1, 10_000, 1000))));

    assertThat(noisy.call("R", 0, true)).isEqualTo("P");
    assertThat(noisy.call("R")).isEqualTo("B");
  }
}
