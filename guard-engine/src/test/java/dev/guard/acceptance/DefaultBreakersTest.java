package dev.guard.acceptance;

import dev.guard.api.rule.RuleSet;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.guard.api.CircuitBreaker;
import dev.guard.api.RefusedException;
import dev.guard.api.rule.CircuitBreakerRule;
import dev.guard.api.rule.FlowRule;
import dev.guard.engine.GuardEngine;
import dev.guard.testsupport.Scenario;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Default breakers: one private set per resource without circuit breaker rules of its own. */
class DefaultBreakersTest {

  private static final CircuitBreakerRule ANY =
      CircuitBreakerRule.errorCount(RuleSet.EVERY_RESOURCE, 0).withMinCalls(1);

  private final Scenario s = new Scenario();

  private CircuitBreaker.State state(String resource) {
    return s.engine.breakers(resource).get(0).state();
  }

  @Test
  void resourceWithoutRules_getsItsOwnBreaker_openedByItsOwnErrors() {
    s.engine.apply(s.engine.ruleSet().withRulesOf(RuleSet.EVERY_RESOURCE, List.of(ANY)).withDefaultBreakerExclusions(Set.of()));

    s.call("a", 0, true);

    assertThat(state("a")).isEqualTo(CircuitBreaker.State.OPEN);
    assertThat(s.call("b", 0, false)).isEqualTo("P");
    assertThat(state("b")).isEqualTo(CircuitBreaker.State.CLOSED);
    assertThatThrownBy(() -> s.engine.resource("a").enter())
        .isInstanceOfSatisfying(RefusedException.Breaker.class, refused -> {
          assertThat(refused.resource()).isEqualTo("a");
          assertThat(refused.rule()).isEqualTo(ANY);
        });
    assertThat(s.engine.rules("a")).as("defaults are not the resource's own rules").isEmpty();
  }

  @Test
  void existingResource_getsTheDefaultsAtOnce() {
    s.call("a", 0, false);

    s.engine.apply(s.engine.ruleSet().withRulesOf(RuleSet.EVERY_RESOURCE, List.of(ANY)).withDefaultBreakerExclusions(Set.of()));

    assertThat(s.engine.breakers("a")).singleElement()
        .satisfies(b -> assertThat(b.rule()).isEqualTo(ANY));
  }

  @Test
  void ownCircuitBreakerRules_replaceTheDefaults_butFlowRulesDoNot() {
    s.engine.apply(s.engine.ruleSet().withRulesOf(RuleSet.EVERY_RESOURCE, List.of(ANY)).withDefaultBreakerExclusions(Set.of()));
    CircuitBreakerRule own = CircuitBreakerRule.errorCount("own", 5);
    s.engine.apply(s.engine.ruleSet().withRulesOf("own", List.of(own)));
    s.engine.apply(s.engine.ruleSet().withRulesOf("flow", List.of(FlowRule.qps("flow", 100))));

    assertThat(s.engine.breakers("own")).extracting(CircuitBreaker::rule).containsExactly(own);
    assertThat(s.engine.breakers("flow")).extracting(CircuitBreaker::rule).containsExactly(ANY);
    s.engine.apply(s.engine.ruleSet().withRulesOf("own", List.of()));
    assertThat(s.engine.breakers("own")).extracting(CircuitBreaker::rule).containsExactly(ANY);
  }

  @Test
  void excludedResource_getsNoDefaultBreaker() {
    s.engine.apply(s.engine.ruleSet().withRulesOf(RuleSet.EVERY_RESOURCE, List.of(ANY)).withDefaultBreakerExclusions(Set.of("health")));

    s.call("health", 0, true);

    assertThat(s.engine.breakers("health")).isEmpty();
    assertThat(s.call("health", 0, false)).isEqualTo("P");
  }

  @Test
  void equalDefaults_reloaded_keepEveryResourcesState_andChangedOnesStartClosed() {
    s.engine.apply(s.engine.ruleSet().withRulesOf(RuleSet.EVERY_RESOURCE, List.of(ANY)).withDefaultBreakerExclusions(Set.of()));
    s.call("a", 0, true);
    CircuitBreaker opened = s.engine.breakers("a").get(0);

    s.engine.apply(s.engine.ruleSet().withRulesOf(RuleSet.EVERY_RESOURCE, List.of(ANY, ANY.withOpenFor(Duration.ofSeconds(1)))).withDefaultBreakerExclusions(Set.of()));
    assertThat(s.engine.breakers("a").get(0)).isSameAs(opened);
    assertThat(state("a")).isEqualTo(CircuitBreaker.State.OPEN);

    s.engine.apply(s.engine.ruleSet().withRulesOf(RuleSet.EVERY_RESOURCE, List.of(ANY.withMinCalls(2))).withDefaultBreakerExclusions(Set.of()));
    assertThat(state("a")).isEqualTo(CircuitBreaker.State.CLOSED);
    s.engine.apply(s.engine.ruleSet().withRulesOf(RuleSet.EVERY_RESOURCE, List.of()).withDefaultBreakerExclusions(Set.of()));
    assertThat(s.engine.breakers("a")).isEmpty();
    assertThat(s.engine.ruleSet().rulesOf(RuleSet.EVERY_RESOURCE)).isEmpty();
  }

  @Test
  void reloadOfTheResourcesOwnFlowRules_keepsItsDefaultBreaker() {
    s.engine.apply(s.engine.ruleSet().withRulesOf(RuleSet.EVERY_RESOURCE, List.of(ANY)).withDefaultBreakerExclusions(Set.of()));
    s.call("a", 0, true);

    s.engine.apply(s.engine.ruleSet().withRulesOf("a", List.of(FlowRule.qps("a", 10))));

    assertThat(state("a")).isEqualTo(CircuitBreaker.State.OPEN);
  }

  @Test
  void withRulesOfEveryResource_aRuleOfANamedResource_isRejected() {
    RuleSet set = s.engine.ruleSet();
    List<CircuitBreakerRule> named = List.of(CircuitBreakerRule.errorRatio("a", 0.5));

    assertThatThrownBy(() -> set.withRulesOf(RuleSet.EVERY_RESOURCE, named))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("rule.resource must be '*', was 'a'");
  }
}
