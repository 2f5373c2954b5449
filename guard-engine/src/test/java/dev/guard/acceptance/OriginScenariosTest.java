package dev.guard.acceptance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.RefusedException;
import dev.guard.api.rule.FlowRule;
import dev.guard.engine.GuardedResource;
import dev.guard.engine.GuardedResource.ContextScope;
import dev.guard.engine.GuardEngine;
import dev.guard.testsupport.Scenario;
import java.util.List;
import org.junit.jupiter.api.Test;

/** docs/BEHAVIOUR.md, "Flow rules": origin per origin, and the RELATE and CHAIN strategies. */
class OriginScenariosTest {

  private static String callFrom(Scenario s, String origin) {
    return callIn(s, "web", origin, "R");
  }

  private static String callIn(Scenario s, String context, String origin, String resource) {
    try (ContextScope ignored = s.engine.resource(context).context(context, origin).openContext()) {
      return s.call(resource);
    }
  }

  @Test
  void fromOrigin_specificOtherAndDefault_selectTheirNodes() {
    Scenario s = new Scenario();
    s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(
        FlowRule.qps("R", 4),
        FlowRule.qps("R", 1).withOrigin("appA"),
        FlowRule.qps("R", 2).withOrigin("other"))));

    assertThat(callFrom(s, "appA")).isEqualTo("P");
    assertThat(callFrom(s, "appA")).isEqualTo("B");
    assertThat(callFrom(s, "appB")).isEqualTo("P");
    assertThat(callFrom(s, "appB")).isEqualTo("P");
    assertThat(callFrom(s, "appB")).isEqualTo("B");
    assertThat(callFrom(s, "")).isEqualTo("P");
    assertThat(callFrom(s, "appC")).isEqualTo("B");
  }

  @Test
  void fromOrigin_refusal_namesTheOriginRule() {
    Scenario s = new Scenario();
    FlowRule forA = FlowRule.qps("R", 0).withOrigin("appA");
    s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(FlowRule.qps("R", 4), forA)));

    try (ContextScope ignored = s.engine.resource("web").context("web", "appA").openContext()) {
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> s.engine.resource("R").enter())
          .isInstanceOfSatisfying(RefusedException.class,
              refused -> assertThat(refused.rule()).isEqualTo(forA));
    }
    assertThat(s.engine.stats("R").origin("appA")).get()
        .satisfies(node -> assertThat(node.totalRefused()).isEqualTo(1));
  }

  @Test
  void relate_limitsByTheRelatedResource() {
    Scenario s = new Scenario();
    s.engine.apply(s.engine.ruleSet().withRulesOf("W", List.of(FlowRule.qps("W", 2).withStrategy(FlowRule.Strategy.RELATED, "Rd"))));

    assertThat(s.calls("W", 3)).isEqualTo("PPP");
    assertThat(s.calls("Rd", 2)).isEqualTo("PP");
    assertThat(s.call("W")).isEqualTo("B");
    assertThat(s.at(1000).call("W")).isEqualTo("P");
  }

  @Test
  void relate_countZero_refusesFromTheFirstCall_beforeTheRelatedResourceIsEntered() {
    Scenario s = new Scenario();
    FlowRule closed = FlowRule.qps("W", 0).withStrategy(FlowRule.Strategy.RELATED, "Rd");
    s.engine.apply(s.engine.ruleSet().withRulesOf("W", List.of(closed)));

    assertThat(s.calls("W", 2)).isEqualTo("BB");
    assertThat(s.engine.resources()).as("the related resource is tracked from then on")
        .contains("Rd");
    assertThat(s.engine.stats("Rd").totalPass()).isZero();
  }

  @Test
  void relate_pacing_pacesFromTheFirstCall_beforeTheRelatedResourceIsEntered() {
    Scenario s = new Scenario();
    s.engine.apply(s.engine.ruleSet().withRulesOf("W", List.of(FlowRule.qps("W", 10)
        .withShaping(FlowRule.Shaping.PACING).withStrategy(FlowRule.Strategy.RELATED, "Rd"))));

    assertThat(s.calls("W", 2)).isEqualTo("PP");
    assertThat(s.sleeps).as("the second call waits its turn").containsExactly(100_000_000L);
  }

  @Test
  void relate_relatedResourcePastTheCap_doesNotApply_andNeverMeasuresTheOverflow() {
    Scenario s = new Scenario(GuardEngine.builder().maxResources(1));
    s.engine.apply(s.engine.ruleSet().withRulesOf("W", List.of(FlowRule.qps("W", 1).withStrategy(FlowRule.Strategy.RELATED, "Rd"))));
    assertThat(s.calls("sprayed-1", 1) + s.calls("sprayed-2", 1)).as("on the overflow resource")
        .isEqualTo("PP");

    assertThat(s.calls("W", 3)).isEqualTo("PPP");
    assertThat(s.engine.resources()).doesNotContain("Rd");
  }

  @Test
  void relate_decidesAlike_whetherTheRelatedResourceHasAHandleOrNot() {
    Scenario known = new Scenario();
    Scenario unknown = new Scenario();
    for (Scenario s : List.of(known, unknown)) {
      s.engine.apply(s.engine.ruleSet().withRulesOf("W", List.of(FlowRule.qps("W", 0.5).withStrategy(FlowRule.Strategy.RELATED, "Rd"))));
    }
    known.engine.resource("Rd");

    assertThat(known.calls("W", 2)).isEqualTo("PB").isEqualTo(unknown.calls("W", 2));
  }

  @Test
  void chain_appliesOnlyUnderItsEntrance() {
    Scenario s = new Scenario();
    s.engine.apply(s.engine.ruleSet().withRulesOf("C", List.of(FlowRule.qps("C", 1).withStrategy(FlowRule.Strategy.ENTRANCE, "entranceA"))));

    assertThat(callIn(s, "entranceA", "", "C")).isEqualTo("P");
    assertThat(callIn(s, "entranceA", "", "C")).isEqualTo("B");
    assertThat(callIn(s, "entranceB", "", "C")).isEqualTo("P");
    assertThat(callIn(s, "entranceB", "", "C")).isEqualTo("P");
    assertThat(callIn(s, "entranceB", "", "C")).isEqualTo("P");
    assertThat(s.engine.stats("C").context("entranceA")).get()
        .satisfies(node -> assertThat(node.totalPass()).isEqualTo(1));
    assertThat(s.engine.entranceStats("entranceB")).get()
        .satisfies(node -> assertThat(node.totalPass()).isEqualTo(3));
  }
}
