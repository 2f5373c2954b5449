package dev.guard.acceptance;

import static org.assertj.core.api.Assertions.assertThat;
import dev.guard.api.rule.FlowRule;

import dev.guard.api.RefusedException;
import dev.guard.api.EntryType;
import dev.guard.api.Entry;
import dev.guard.testsupport.Scenario;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * docs/BEHAVIOUR.md, "Rules": reloading a rule list keeps the state of every unchanged rule (warm-up tokens,
 * pacing schedule), whatever else changes in the list; a changed rule starts afresh.
 */
class ShapingReloadTest {

  private static final FlowRule WARM_UP =
      FlowRule.qps("R", 10).withWarmUp(FlowRule.WarmUp.of(Duration.ofSeconds(10)));
  private static final FlowRule PACING = FlowRule.qps("R", 10)
      .withShaping(FlowRule.Shaping.PACING).withMaxQueueingTime(Duration.ofMillis(500));

  /** Passes per second for 12 calls at the start of seconds from .. from + seconds - 1. */
  private static List<Integer> perSecond(Scenario s, int from, int seconds) {
    List<Integer> passes = new ArrayList<>();
    for (int k = from; k < from + seconds; k++) {
      passes.add(s.at(k * 1000L).calls("R", 12).replace("B", "").length());
    }
    return passes;
  }

  private static Scenario hot() {
    Scenario s = new Scenario();
    s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(WARM_UP)));
    assertThat(perSecond(s, 0, 16)).endsWith(10, 10, 10);
    return s;
  }

  /** One call; P(w) with its wait in ms, or B. */
  private static String paced(Scenario s) {
    int before = s.sleeps.size();
    try (Entry ignored = s.engine.resource("R").entryType(EntryType.IN).enter()) {
      return "P(" + (s.sleeps.size() == before ? 0 : s.sleeps.get(before) / 1_000_000) + ")";
    } catch (RefusedException refused) {
      return "B";
    }
  }

  @Test
  void loadRules_equalList_warmUpStaysHot() {
    Scenario s = hot();

    s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(WARM_UP)));

    assertThat(perSecond(s, 16, 2)).containsExactly(10, 10);
  }

  @Test
  void loadRules_unrelatedRuleAdded_warmUpStaysHot() {
    Scenario s = hot();

    s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(FlowRule.concurrency("R", 100), WARM_UP)));

    assertThat(perSecond(s, 16, 2)).containsExactly(10, 10);
  }

  @Test
  void loadRules_changedCount_warmUpStartsCold() {
    Scenario s = hot();

    s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(WARM_UP.withThreshold(11))));

    // a fresh bucket: maxToken 110, less the previous second's 10 passes = 100 tokens, 4.17/s
    assertThat(perSecond(s, 16, 1)).containsExactly(4);
  }

  @Test
  void loadRules_equalOrExtendedList_pacingKeepsItsSchedule() {
    Scenario s = new Scenario();
    s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(PACING)));
    s.at(0);
    assertThat(List.of(paced(s), paced(s), paced(s))).containsExactly("P(0)", "P(100)", "P(200)");

    s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(PACING)));
    assertThat(paced(s)).isEqualTo("P(300)");
    s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(PACING, FlowRule.concurrency("R", 100))));
    assertThat(paced(s)).isEqualTo("P(400)");
  }

  @Test
  void loadRules_changedPacingRule_startsAFreshSchedule() {
    Scenario s = new Scenario();
    s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(PACING)));
    s.at(0);
    assertThat(List.of(paced(s), paced(s))).containsExactly("P(0)", "P(100)");

    s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(PACING.withThreshold(20))));

    assertThat(List.of(paced(s), paced(s))).containsExactly("P(0)", "P(50)");
  }
}
