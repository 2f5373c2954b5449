package dev.guard.acceptance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.guard.api.EntryType;
import dev.guard.api.RefusedException;
import dev.guard.api.rule.FlowRule;
import dev.guard.api.Entry;
import dev.guard.testsupport.Scenario;
import java.util.List;
import org.junit.jupiter.api.Test;

/** docs/BEHAVIOUR.md, "Flow rules": fast reject on QPS and on concurrency. */
class FlowScenariosTest {

  @Test
  void qps_acrossBucketBoundary_countsPreviousBucketUntilItSlidesOut() {
    Scenario s = new Scenario();
    s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(FlowRule.qps("R", 5))));

    assertThat(s.at(499).calls("R", 6)).isEqualTo("PPPPPB");
    assertThat(s.at(500).calls("R", 1)).isEqualTo("B");
    assertThat(s.at(999).calls("R", 1)).isEqualTo("B");
    assertThat(s.at(1000).calls("R", 6)).isEqualTo("PPPPPB");
    assertThat(s.at(1500).calls("R", 6)).isEqualTo("BBBBBB");
  }

  @Test
  void concurrency_atLimit_refusesUntilAnEntryExits() {
    Scenario s = new Scenario();
    s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(FlowRule.concurrency("R", 2))));

    Entry e1 = s.engine.resource("R").entryType(EntryType.IN).enter();
    Entry e2 = s.engine.resource("R").entryType(EntryType.IN).enter();
    assertThatThrownBy(() -> s.engine.resource("R").entryType(EntryType.IN).enter())
        .isInstanceOf(RefusedException.Flow.class);
    e2.close();
    Entry e4 = s.engine.resource("R").entryType(EntryType.IN).enter();
    e4.close();
    e1.close();

    assertThat(s.engine.stats("R").concurrency()).isZero();
    assertThat(s.engine.inboundStats().concurrency()).isZero();
    assertThat(s.engine.stats("R").totalPass()).isEqualTo(3);
    assertThat(s.engine.stats("R").totalRefused()).isEqualTo(1);
  }

  @Test
  void refusal_carriesResourceAndRule() {
    Scenario s = new Scenario();
    FlowRule rule = FlowRule.qps("R", 0);
    s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(rule)));

    assertThatThrownBy(() -> s.engine.resource("R").enter())
        .isInstanceOfSatisfying(RefusedException.Flow.class, refused -> {
          assertThat(refused.resource()).isEqualTo("R");
          assertThat(refused.rule()).isEqualTo(rule);
          assertThat(refused.getMessage()).contains("'R'");
          assertThat(refused.getStackTrace()).isEmpty();
        });
  }

  @Test
  void qps_belowOnePerSecond_admitsOneCallPerPeriodInsteadOfStarving() {
    Scenario s = new Scenario();
    s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(FlowRule.qps("R", 0.5))));

    assertThat(s.at(0).calls("R", 2)).isEqualTo("PB");
    assertThat(s.at(1500).calls("R", 1)).isEqualTo("B");
    assertThat(s.at(2000).calls("R", 2)).isEqualTo("PB");
    assertThat(s.at(4000).calls("R", 1)).isEqualTo("P");
  }
}
