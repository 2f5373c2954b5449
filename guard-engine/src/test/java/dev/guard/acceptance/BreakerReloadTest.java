package dev.guard.acceptance;

import static dev.guard.acceptance.BreakerScenariosTest.rule;
import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.CircuitBreaker;
import dev.guard.api.rule.CircuitBreakerRule;
import dev.guard.api.rule.FlowRule;
import dev.guard.engine.GuardedResource;
import dev.guard.testsupport.Scenario;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A reload keeps the breaker of every unchanged rule, with its state and window. */
class BreakerReloadTest {

  private final CircuitBreakerRule rule = rule(CircuitBreakerRule.Strategy.ERROR_COUNT, 1, 0, 1, 10_000, 1000);

  @Test
  void equalRule_keepsTheOpenBreakerAndItsHandle() {
    Scenario s = new Scenario();
    s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(rule)));
    s.call("R", 0, true);
    s.call("R", 0, true);
    CircuitBreaker before = s.engine.breakers("R").get(0);

    s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(FlowRule.qps("R", 100), rule)));

    assertThat(s.engine.breakers("R")).containsExactly(before);
    assertThat(before.state()).isEqualTo(CircuitBreaker.State.OPEN);
    assertThat(s.call("R")).isEqualTo("B");
  }

  @Test
  void equalRule_keepsTheWindow() {
    Scenario s = new Scenario();
    s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(rule)));
    s.call("R", 0, true);

    s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(rule, rule.withOpenFor(Duration.ofSeconds(5)))));
    s.call("R", 0, true);

    assertThat(s.engine.breakers("R")).extracting(CircuitBreaker::state)
        .containsExactly(CircuitBreaker.State.OPEN, CircuitBreaker.State.CLOSED);
  }

  @Test
  void changedRule_startsClosedWithAnEmptyWindow() {
    Scenario s = new Scenario();
    s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(rule)));
    s.call("R", 0, true);
    s.call("R", 0, true);

    s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(rule.withMinCalls(2))));

    assertThat(s.engine.breakers("R")).singleElement()
        .satisfies(b -> assertThat(b.state()).isEqualTo(CircuitBreaker.State.CLOSED));
    s.call("R", 0, true);
    assertThat(s.engine.breakers("R").get(0).state()).isEqualTo(CircuitBreaker.State.CLOSED);
  }

  @Test
  void forcedState_isKeptForAnEqualRule() {
    Scenario s = new Scenario();
    s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(rule)));
    s.engine.breakers("R").get(0).forceOpen();

    s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(rule, FlowRule.qps("R", 10))));

    assertThat(s.engine.breakers("R").get(0).state()).isEqualTo(CircuitBreaker.State.FORCED_OPEN);
  }

  @Test
  void declaringBreakers_keepsTheFlowRulesOfTheResource_andTheReverse() {
    Scenario s = new Scenario();
    GuardedResource r = s.engine.resource("R");
    r.declare(List.of(FlowRule.qps("R", 1)));
    r.declare(List.of(rule));
    assertThat(s.engine.rules("R")).containsExactly(FlowRule.qps("R", 1), rule);
    s.call("R", 0, true);
    s.call("R", 0, true);
    CircuitBreaker opened = s.engine.breakers("R").get(0);

    r.declare(List.of(FlowRule.qps("R", 2)));

    assertThat(s.engine.rules("R")).containsExactly(rule, FlowRule.qps("R", 2));
    assertThat(s.engine.breakers("R")).containsExactly(opened);
  }

  @Test
  void removedRules_removeTheBreakers() {
    Scenario s = new Scenario();
    s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(rule)));

    s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of()));

    assertThat(s.engine.breakers("R")).isEmpty();
    assertThat(s.engine.breakers("unknown")).isEmpty();
  }
}
