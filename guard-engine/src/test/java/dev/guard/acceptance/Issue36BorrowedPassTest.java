package dev.guard.acceptance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.guard.api.CircuitBreaker;
import dev.guard.api.Entry;
import dev.guard.api.EntryType;
import dev.guard.api.RefusedException;
import dev.guard.api.rule.CircuitBreakerRule;
import dev.guard.api.rule.FlowRule;
import dev.guard.testsupport.Scenario;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A borrowed pass is counted once, in its bucket, and given back from where it was counted
 * (docs/BEHAVIOUR.md, "Flow rules"): two prioritized calls that borrow from the same bucket and are
 * both refused by an open breaker after their wait leave that bucket empty, not one pass below
 * empty; a borrowed pass counts in its bucket even when no other call is recorded there.
 */
class Issue36BorrowedPassTest {

  private static Entry enterPrioritized(Scenario s) {
    return s.engine.resource("R").entryType(EntryType.IN).permits(1).prioritized().enter();
  }

  @Test
  void twoBorrowsRefusedByOpenBreaker_nextSecondAdmitsTheRuleOnly() {
    Scenario s = new Scenario();
    s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(FlowRule.qps("R", 1),
        BreakerScenariosTest.rule(CircuitBreakerRule.Strategy.ERROR_COUNT, 1, 0, 1, 10_000, 1000))));
    CircuitBreaker breaker = s.engine.breakers("R").get(0);
    assertThat(s.at(0).calls("R", 1)).isEqualTo("P");
    s.at(700);
    breaker.forceOpen();

    // each borrows a pass of the bucket T0+1000, waits 300 ms, and meets the open breaker
    assertThatThrownBy(() -> enterPrioritized(s)).isInstanceOf(RefusedException.Breaker.class);
    assertThatThrownBy(() -> enterPrioritized(s)).isInstanceOf(RefusedException.Breaker.class);
    assertThat(s.sleeps).as("both borrowed").containsExactly(300_000_000L, 300_000_000L);
    breaker.forceClosed();

    StringBuilder second = new StringBuilder();
    for (long at = 1000; at < 2000; at += 100) {
      second.append(s.at(at).calls("R", 1));
    }
    assertThat(second.toString()).as("calls at T0+1000, +1100, ..., +1900 under qps 1")
        .isEqualTo("PBBBBBBBBB");
    assertThat(s.engine.stats("R").totalPass()).as("passes in the minute").isEqualTo(2);
  }

  @Test
  void borrowedPass_noOtherCallInItsBucket_stillCountsInItsWindow() {
    Scenario s = new Scenario();
    s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(FlowRule.qps("R", 1))));
    assertThat(s.at(0).calls("R", 1)).isEqualTo("P");
    s.at(700);
    enterPrioritized(s).close(); // borrows a pass of the bucket T0+1000 and is admitted then

    assertThat(s.at(1600).calls("R", 1)).as("the window T0+1000 .. T0+2000 holds the borrowed pass")
        .isEqualTo("B");
    assertThat(s.at(2000).calls("R", 2)).isEqualTo("PB");
  }
}
