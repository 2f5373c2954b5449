package dev.guard.acceptance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.guard.Guard;
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

/** A guard's declaration beside a rule source (docs/BEHAVIOUR.md, "Installing rules"); the rest is in the engine's InstallingRulesTest. */
class InstallingRulesDslTest {

  private static final CircuitBreakerRule BREAKER = CircuitBreakerRule.errorCount("search", 5);

  private final Scenario s = new Scenario();

  @Test
  void declaration_ofAKindASourceOwns_givesWayToTheSource() {
    GuardEngine engine = s.engine;
    Supplier<String> guarded = Guard.of("search").qps(3).errorCount(9)
        .on(engine).decorate(() -> "ok");
    assertThat(guarded.get()).isEqualTo("ok"); // the first call declares both rules
    HandedSource breakers = new HandedSource("breakers");
    engine.attach(breakers, RulePart.kinds(CircuitBreakerRule.class));

    breakers.deliver(RuleSet.of(BREAKER));
    assertThat(engine.rules("search"))
        .containsExactlyInAnyOrder(FlowRule.qps("search", 3), BREAKER);
    engine.resource("search").declare(List.of(FlowRule.qps("search", 4),
        CircuitBreakerRule.errorCount("search", 1)));

    assertThat(engine.rules("search")).containsExactlyInAnyOrder(FlowRule.qps("search", 4), BREAKER);
  }
}
