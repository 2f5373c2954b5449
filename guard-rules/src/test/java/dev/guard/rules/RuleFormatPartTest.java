package dev.guard.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.guard.api.rule.CircuitBreakerRule;
import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.InvalidRulesException;
import dev.guard.spi.RulePart;
import org.junit.jupiter.api.Test;

/** docs/RULES.md, "Rule sources": a source's document may hold only rules of its part. */
class RuleFormatPartTest {

  private static final String FLOWS = """
      {"version": 1, "flow": [
        {"resource": "a", "qps": 10},
        {"resource": "b", "qps": 20}
      ]}""";

  @Test
  void parse_rulesInsideThePart_readAsWithoutOne() {
    assertThat(RuleFormat.parse(FLOWS, RulePart.kinds(FlowRule.class)))
        .isEqualTo(RuleFormat.parse(FLOWS));
  }

  @Test
  void parse_ruleOutsideThePart_isInvalidAtItsPath() {
    assertThatThrownBy(() -> RuleFormat.parse(FLOWS, RulePart.resources("a")))
        .isInstanceOfSatisfying(InvalidRulesException.class, invalid ->
            assertThat(invalid.errors()).extracting(InvalidRulesException.Error::path).containsExactly("rules.flow[1]"))
        .hasMessageContaining("must lie in the source's part RulePart.resources[a], was outside it");
  }

  @Test
  void parse_kindOutsideThePart_namesEveryRule() {
    assertThatThrownBy(() -> RuleFormat.parse(FLOWS, RulePart.kinds(CircuitBreakerRule.class)))
        .isInstanceOfSatisfying(InvalidRulesException.class, invalid ->
            assertThat(invalid.errors()).extracting(InvalidRulesException.Error::path)
                .containsExactly("rules.flow[0]", "rules.flow[1]"));
  }
}
