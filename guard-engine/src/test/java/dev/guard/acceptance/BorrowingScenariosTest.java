package dev.guard.acceptance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.RefusedException;
import dev.guard.api.EntryType;
import dev.guard.api.rule.FlowRule;
import dev.guard.api.Entry;
import dev.guard.testsupport.Scenario;
import java.util.List;
import org.junit.jupiter.api.Test;

/** docs/BEHAVIOUR.md, "Flow rules": prioritized calls borrow a pass from the next bucket and wait for it. */
class BorrowingScenariosTest {

  private static String prioritized(Scenario s) {
    try (Entry ignored = s.engine.resource("R").entryType(EntryType.IN).permits(1).prioritized().enter()) {
      return "P";
    } catch (RefusedException refused) {
      return "B";
    }
  }

  @Test
  void prioritized_overLimit_borrowsNextBucketUntilItIsFull() {
    Scenario s = new Scenario();
    s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(FlowRule.qps("R", 2))));

    assertThat(s.at(0).calls("R", 2)).isEqualTo("PP");
    s.at(700);
    assertThat(prioritized(s)).isEqualTo("P");
    assertThat(prioritized(s)).isEqualTo("P");
    assertThat(s.sleeps).containsExactly(300_000_000L, 300_000_000L);
    assertThat(prioritized(s)).isEqualTo("B");
    assertThat(s.calls("R", 1)).isEqualTo("B");
    assertThat(s.engine.stats("R").passQps()).isEqualTo(2.0);
    assertThat(s.engine.stats("R").totalPass()).isEqualTo(4);

    assertThat(s.at(1000).calls("R", 1)).isEqualTo("B");
    assertThat(s.engine.stats("R").passQps()).isEqualTo(2.0);
    assertThat(s.at(1500).calls("R", 1)).isEqualTo("B");
    assertThat(s.engine.stats("R").passQps()).isEqualTo(2.0);
    assertThat(s.at(2000).calls("R", 3)).isEqualTo("PPB");
  }

  @Test
  void prioritized_onBucketBoundary_cannotBorrow() {
    Scenario s = new Scenario();
    s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(FlowRule.qps("R", 2))));

    assertThat(s.at(0).calls("R", 2)).isEqualTo("PP");
    assertThat(prioritized(s.at(500))).isEqualTo("B");
    assertThat(prioritized(s.at(501))).isEqualTo("P");
    assertThat(s.sleeps).containsExactly(499_000_000L);
  }

  @Test
  void prioritized_borrowedPass_keepsGaugesBalanced() {
    Scenario s = new Scenario();
    s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(FlowRule.qps("R", 1))));
    s.at(100).calls("R", 1);

    assertThat(prioritized(s.at(600))).isEqualTo("P");

    assertThat(s.engine.stats("R").concurrency()).isZero();
    assertThat(s.engine.inboundStats().concurrency()).isZero();
    assertThat(s.engine.stats("R").totalRequest()).isEqualTo(2);
  }
}
