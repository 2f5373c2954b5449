package dev.guard.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.guard.api.rule.CircuitBreakerRule;
import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.RuleSet;
import dev.guard.api.rule.SystemRule;
import org.junit.jupiter.api.Test;

class RulePartTest {

  private static final FlowRule FLOW = FlowRule.qps("a", 1);
  private static final CircuitBreakerRule BREAKER = CircuitBreakerRule.errorCount("b", 1);

  @Test
  void contains_byKindByResourceOrAll() {
    assertThat(RulePart.all().contains(FLOW)).isTrue();
    assertThat(RulePart.kinds(FlowRule.class).contains(FLOW)).isTrue();
    assertThat(RulePart.kinds(FlowRule.class).contains(BREAKER)).isFalse();
    assertThat(RulePart.resources("b").contains(BREAKER)).isTrue();
    assertThat(RulePart.resources("b").contains(FLOW)).isFalse();
    assertThat(RulePart.resources(SystemRule.INBOUND).contains(SystemRule.of().withMaxInboundQps(1)))
        .isTrue();
  }

  @Test
  void overlaps_sharedKindSharedResourceKindsAgainstResourcesAndAll() {
    assertThat(RulePart.all().overlaps(RulePart.resources("a"))).isTrue();
    assertThat(RulePart.kinds(FlowRule.class).overlaps(RulePart.kinds(CircuitBreakerRule.class)))
        .isFalse();
    assertThat(RulePart.kinds(FlowRule.class, SystemRule.class)
        .overlaps(RulePart.kinds(SystemRule.class))).isTrue();
    assertThat(RulePart.resources("a").overlaps(RulePart.resources("b"))).isFalse();
    assertThat(RulePart.resources("a", "b").overlaps(RulePart.resources("b"))).isTrue();
    assertThat(RulePart.resources("a").overlaps(RulePart.kinds(FlowRule.class))).isTrue();
  }

  @Test
  void holdsDefaultBreakers_whenItHoldsBreakersOfEveryResource() {
    assertThat(RulePart.all().holdsDefaultBreakers()).isTrue();
    assertThat(RulePart.kinds(CircuitBreakerRule.class).holdsDefaultBreakers()).isTrue();
    assertThat(RulePart.resources(RuleSet.EVERY_RESOURCE).holdsDefaultBreakers()).isTrue();
    assertThat(RulePart.kinds(FlowRule.class).holdsDefaultBreakers()).isFalse();
    assertThat(RulePart.resources("a").holdsDefaultBreakers()).isFalse();
  }

  @Test
  void factories_withoutAnything_areRejected_andEqualPartsAreEqual() {
    assertThatThrownBy(RulePart::kinds).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("kinds must name at least one rule kind, was none");
    assertThatThrownBy(RulePart::resources).isInstanceOf(IllegalArgumentException.class);
    assertThat(RulePart.resources("b", "a")).isEqualTo(RulePart.resources("a", "b"))
        .hasToString("RulePart.resources[a, b]");
    assertThat(RulePart.kinds(FlowRule.class, CircuitBreakerRule.class))
        .isEqualTo(RulePart.kinds(CircuitBreakerRule.class, FlowRule.class))
        .hasToString("RulePart.kinds[CircuitBreakerRule, FlowRule]");
  }
}
