package dev.guard.acceptance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.guard.api.rule.OriginRule;
import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.InvalidRulesException;
import dev.guard.api.rule.Rule;
import dev.guard.api.rule.RuleSet;
import dev.guard.api.rule.SystemRule;
import dev.guard.spi.EngineListener;
import dev.guard.engine.GuardEngine;
import dev.guard.testsupport.Scenario;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * docs/BEHAVIOUR.md, "Rule sets": a whole set replaces every resource's rules at once, keeps the
 * state of unchanged rules, is refused as a whole, and is remembered in the rule history.
 */
class RuleSetTest {

  private static final FlowRule WARM_UP =
      FlowRule.qps("R", 10).withWarmUp(FlowRule.WarmUp.of(Duration.ofSeconds(10)));

  /** Records what listeners hear. */
  static final class Heard implements EngineListener {
    final List<String> events = new ArrayList<>();

    @Override
    public void onRulesReplaced(String resource, List<Rule> previous, List<Rule> current) {
      events.add("replaced " + resource + " " + previous.size() + "->" + current.size());
    }

    @Override
    public void onRulesApplied(RuleSet.Revision revision) {
      events.add("applied #" + revision.number() + " from " + revision.source() + ": "
          + revision.changes());
    }

    @Override
    public void onRulesInvalid(String source, List<InvalidRulesException.Error> errors) {
      events.add("rejected from " + source + ": " + errors);
    }
  }

  private static RuleSet set(Rule... rules) {
    return RuleSet.of(List.of(rules));
  }

  @Test
  void applyRules_replacesEveryResourcesRules_andStatisticsStay() {
    Scenario s = new Scenario();
    s.engine.apply(s.engine.ruleSet().withRulesOf("old", List.of(FlowRule.qps("old", 1))));
    s.call("old");

    s.engine.apply(set(FlowRule.qps("A", 1), FlowRule.qps("B", 2)));

    assertThat(s.engine.rules("old")).isEmpty();
    assertThat(s.engine.rules("A")).containsExactly(FlowRule.qps("A", 1));
    assertThat(s.engine.ruleSet()).isEqualTo(set(FlowRule.qps("A", 1), FlowRule.qps("B", 2)));
    assertThat(s.engine.stats("old").totalPass()).isEqualTo(1);
    assertThat(s.call("A") + s.call("A")).isEqualTo("PB");
  }

  @Test
  void applyRules_equalSet_changesAndRecordsNothing() {
    Heard heard = new Heard();
    Scenario s = new Scenario(GuardEngine.builder().listener(heard));
    s.engine.apply(set(FlowRule.qps("A", 1)));

    assertThat(s.engine.apply(set(FlowRule.qps("A", 1)))).isEmpty();

    assertThat(s.engine.ruleHistory()).hasSize(1);
    assertThat(heard.events).containsExactly(
        "replaced A 0->1", "applied #1 from apply: 1 added, 0 removed on [A]");
  }

  @Test
  void applyRules_unchangedWarmUpRule_staysHot_changedOneStartsCold() {
    Scenario s = new Scenario();
    s.engine.apply(set(WARM_UP));
    for (int k = 0; k < 16; k++) {
      s.at(k * 1000L).calls("R", 12);
    }
    assertThat(s.at(16_000).calls("R", 12)).isEqualTo("PPPPPPPPPPBB");

    s.engine.apply(set(WARM_UP, FlowRule.qps("other", 5)));
    assertThat(s.at(17_000).calls("R", 12)).isEqualTo("PPPPPPPPPPBB");

    s.engine.apply(set(WARM_UP.withThreshold(11), FlowRule.qps("other", 5)));
    assertThat(s.at(18_000).calls("R", 12)).isEqualTo("PPPPBBBBBBBB");
  }

  @Test
  void applyRules_setAnEngineCannotTake_changesNothing_andIsReported() {
    Heard heard = new Heard();
    Scenario s = new Scenario(GuardEngine.builder().maxResources(2).listener(heard));
    s.engine.apply(set(FlowRule.qps("A", 1)));
    heard.events.clear();

    InvalidRulesException refused = catchThrowableOfType(InvalidRulesException.class,
        () -> s.engine.apply(set(FlowRule.qps("A", 9), FlowRule.qps("B", 1), FlowRule.qps("C", 1))));

    assertThat(refused.errors()).extracting(InvalidRulesException.Error::toString).containsExactly(
        "rules: maxResources 2 reached: cannot add rules for 2 new resources [B, C]");
    assertThat(s.engine.ruleSet()).isEqualTo(set(FlowRule.qps("A", 1)));
    assertThat(s.engine.ruleHistory()).hasSize(1);
    assertThat(heard.events).containsExactly("rejected from apply: " + refused.errors());
  }

  @Test
  void applyRules_ruleOfAnUnknownKind_refusesTheWholeSet() {
    Scenario s = new Scenario();
    s.engine.apply(set(FlowRule.qps("A", 1)));
    Rule unknown = () -> "B";

    assertThatThrownBy(() -> s.engine.apply(set(FlowRule.qps("A", 5), unknown)))
        .isInstanceOf(InvalidRulesException.class)
        .hasMessageContaining("B: rule type must be one of the engine's rule kinds");
    assertThat(s.engine.rules("A")).containsExactly(FlowRule.qps("A", 1));
  }

  @Test
  void ruleHistory_keepsTheLastN_withTimeSourceAndDiff() {
    Scenario s = new Scenario(GuardEngine.builder().ruleHistory(2));
    s.engine.apply(set(FlowRule.qps("A", 1)));
    s.engine.apply(set(FlowRule.qps("A", 2)));
    s.at(5_000);
    s.engine.apply(set(FlowRule.qps("A", 2), FlowRule.qps("B", 1)));

    List<RuleSet.Revision> history = s.engine.ruleHistory();

    assertThat(history).extracting(RuleSet.Revision::number).containsExactly(2L, 3L);
    assertThat(history).extracting(RuleSet.Revision::source).containsExactly("apply", "apply");
    RuleSet.Revision last = history.get(1);
    assertThat(last.appliedAt()).isEqualTo(Instant.EPOCH.plusMillis(Scenario.T0 + 5_000));
    assertThat(last.added()).containsExactly(FlowRule.qps("B", 1));
    assertThat(last.removed()).isEmpty();
    assertThat(history.get(0).changes()).isEqualTo("1 added, 1 removed on [A]");
  }

  @Test
  void rollBack_appliesAnEarlierSetAsANewRevision() {
    Scenario s = new Scenario();
    s.engine.apply(set(FlowRule.qps("A", 1)));
    s.engine.apply(set(FlowRule.qps("A", 2), FlowRule.qps("B", 1)));

    RuleSet.Revision back = s.engine.rollBack(1).orElseThrow();

    assertThat(back.number()).isEqualTo(3);
    assertThat(back.source()).isEqualTo("roll back to #1 (apply)");
    assertThat(s.engine.ruleSet()).isEqualTo(set(FlowRule.qps("A", 1)));
    assertThatThrownBy(() -> s.engine.rollBack(7))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("revision must be in the rule history (#1 to #3), was #7");
  }

  @Test
  void ruleSet_includesDeclaredRules_andApplyingReplacesThem() {
    Scenario s = new Scenario();
    s.engine.resource("declared").declare(List.of(FlowRule.qps("declared", 3)));

    assertThat(s.engine.ruleSet()).isEqualTo(set(FlowRule.qps("declared", 3)));

    s.engine.apply(set(FlowRule.qps("A", 1)));
    assertThat(s.engine.rules("declared")).isEmpty();
  }

  @Test
  void applyRules_withSystemAndOriginRules_appliesThemWithTheRest() {
    Heard heard = new Heard();
    Scenario s = new Scenario(GuardEngine.builder().listener(heard));
    SystemRule system = SystemRule.of().withMaxInboundQps(2);
    OriginRule authority = OriginRule.deny("A", "scraper");

    s.engine.apply(set(FlowRule.qps("A", 10), authority, system));

    assertThat(s.engine.ruleSet().rulesOf(SystemRule.class)).containsExactly(system);
    assertThat(s.engine.ruleSet()).isEqualTo(set(FlowRule.qps("A", 10), authority, system));
    assertThat(s.call("A") + s.call("A") + s.call("A")).isEqualTo("PPB");
    assertThat(heard.events).contains("replaced " + SystemRule.INBOUND + " 0->1");
  }

  @Test
  void applyRules_refusedSet_keepsTheSystemRulesInForce() {
    Scenario s = new Scenario();
    SystemRule system = SystemRule.of().withMaxInboundQps(2);
    s.engine.apply(set(FlowRule.qps("A", 10), system));

    assertThatThrownBy(() -> s.engine.apply(set(FlowRule.qps("A", 10),
        OriginRule.deny("A", "x"), OriginRule.allow("A", "y"),
        SystemRule.of().withMaxInboundQps(100))))
        .isInstanceOf(InvalidRulesException.class)
        .hasMessageContaining("A: a resource has at most one origin rule");

    assertThat(s.engine.ruleSet().rulesOf(SystemRule.class)).containsExactly(system);
    assertThat(s.call("A") + s.call("A") + s.call("A")).isEqualTo("PPB");
  }
}
