package dev.guard.acceptance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.guard.api.rule.CircuitBreakerRule;
import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.InvalidRulesException;
import dev.guard.api.rule.RuleSet;
import dev.guard.api.rule.SystemRule;
import dev.guard.engine.GuardEngine;
import dev.guard.spi.RulePart;
import dev.guard.spi.RuleSource;
import dev.guard.testsupport.HandedSource;
import dev.guard.testsupport.Scenario;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * docs/BEHAVIOUR.md, "Installing rules": the whole set, a guard's declaration, and sources that
 * each own a part of the set.
 */
class InstallingRulesTest {

  private static final CircuitBreakerRule BREAKER = CircuitBreakerRule.errorCount("search", 5);

  private final Scenario s = new Scenario();

  @Test
  void delivery_ofAKindsPart_replacesOnlyThatKind_asOneRevision() {
    s.engine.apply(RuleSet.of(FlowRule.qps("search", 10), FlowRule.qps("orders", 5)));
    HandedSource breakers = new HandedSource("breakers");
    s.engine.attach(breakers, RulePart.kinds(CircuitBreakerRule.class));

    breakers.deliver(RuleSet.of(BREAKER));

    assertThat(s.engine.ruleSet())
        .isEqualTo(RuleSet.of(FlowRule.qps("search", 10), FlowRule.qps("orders", 5), BREAKER));
    RuleSet.Revision last = s.engine.ruleHistory().get(s.engine.ruleHistory().size() - 1);
    assertThat(last.source()).isEqualTo("breakers");
    assertThat(last.added()).containsExactly(BREAKER);
    assertThat(last.removed()).isEmpty();
  }

  @Test
  void delivery_ofAResourcesPart_replacesEveryKindOfThoseResourcesOnly() {
    s.engine.apply(RuleSet.of(FlowRule.qps("search", 10), FlowRule.qps("orders", 5)));
    HandedSource search = new HandedSource("search");
    s.engine.attach(search, RulePart.resources("search"));

    search.deliver(RuleSet.of(BREAKER));

    assertThat(s.engine.ruleSet()).isEqualTo(RuleSet.of(FlowRule.qps("orders", 5), BREAKER));
  }

  @Test
  void attach_overlappingPart_throwsNamingBothParts_andStartsNothing() {
    s.engine.attach(new HandedSource("flows"), RulePart.kinds(FlowRule.class));
    HandedSource second = new HandedSource("search");

    assertThatThrownBy(() -> s.engine.attach(second, RulePart.resources("search")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("RulePart.resources[search] of 'search'")
        .hasMessageContaining("RulePart.kinds[FlowRule] of 'flows'");
    assertThat(second.sink).isNull();
  }

  @Test
  void attach_disjointParts_bothDeliver() {
    HandedSource flows = new HandedSource("flows");
    HandedSource breakers = new HandedSource("breakers");
    s.engine.attach(flows, RulePart.kinds(FlowRule.class));
    s.engine.attach(breakers, RulePart.kinds(CircuitBreakerRule.class, SystemRule.class));

    flows.deliver(RuleSet.of(FlowRule.qps("search", 10)));
    breakers.deliver(RuleSet.of(BREAKER, SystemRule.of().withMaxInboundQps(100)));
    flows.deliver(RuleSet.of(FlowRule.qps("search", 20)));

    assertThat(s.engine.ruleSet()).isEqualTo(RuleSet.of(
        FlowRule.qps("search", 20), BREAKER, SystemRule.of().withMaxInboundQps(100)));
  }

  @Test
  void sinkApply_ruleOutsideThePart_isInvalid_andChangesNothing() {
    s.engine.apply(RuleSet.of(FlowRule.qps("orders", 5)));
    HandedSource breakers = new HandedSource("breakers");
    s.engine.attach(breakers, RulePart.kinds(CircuitBreakerRule.class));

    assertThatThrownBy(() -> breakers.target().apply(RuleSet.of(BREAKER, FlowRule.qps("a", 1))))
        .isInstanceOf(InvalidRulesException.class)
        .hasMessageContaining("FlowRule[a]: must lie in the source's part");
    assertThat(s.engine.ruleSet()).isEqualTo(RuleSet.of(FlowRule.qps("orders", 5)));
  }

  @Test
  void apply_defaultBreakersAndTheirExclusions_arePartOfTheRuleSet() {
    CircuitBreakerRule every = CircuitBreakerRule.errorCount(RuleSet.EVERY_RESOURCE, 3);
    RuleSet set = RuleSet.of(every).withDefaultBreakerExclusions(Set.of("health"));

    s.engine.apply(set);
    s.call("orders");
    s.call("health");

    assertThat(s.engine.ruleSet()).isEqualTo(set);
    assertThat(s.engine.breakers("orders")).hasSize(1);
    assertThat(s.engine.breakers("health")).isEmpty();
    assertThat(s.engine.apply(set)).as("an equal set changes nothing").isEmpty();
  }
}
