package dev.guard.acceptance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.guard.api.CircuitBreaker;
import dev.guard.api.RefusedException;
import dev.guard.api.EntryType;
import dev.guard.api.rule.FlowRule;
import dev.guard.api.rule.CircuitBreakerRule;
import dev.guard.api.Entry;
import dev.guard.engine.NodeStats;
import dev.guard.testsupport.Scenario;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A call that one rule admits (at once, or after a wait on a paced slot or a borrowed pass) and a
 * later rule or slot of the same resource then refuses was never admitted: what the first rule reserved
 * for it goes back, so the statistics count it once, as a refused, and the next caller gets the
 * permit or the slot.
 */
class RefusedAfterWaitTest {

  private static final FlowRule ONE_AT_A_TIME = FlowRule.concurrency("R", 1);

  private static void assertCounted(Scenario s, long passes, long refusals) {
    NodeStats stats = s.engine.stats("R");
    assertThat(stats.totalPass()).as("passes").isEqualTo(passes);
    assertThat(stats.totalRefused()).as("refusals").isEqualTo(refusals);
    assertThat(stats.concurrency()).isZero();
  }

  @Test
  void borrowedPass_refusedByLaterRule_isGivenBack() {
    Scenario s = new Scenario();
    s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(FlowRule.qps("R", 2), ONE_AT_A_TIME)));
    assertThat(s.at(0).calls("R", 2)).isEqualTo("PP");
    s.at(700);
    Entry holder = s.engine.resource("R").entryType(EntryType.IN).permits(1).prioritized().enter(); // borrows, waits 300 ms

    assertThatThrownBy(() -> s.engine.resource("R").entryType(EntryType.IN).permits(1).prioritized().enter())
        .isInstanceOfSatisfying(RefusedException.Flow.class,
            refused -> assertThat(refused.rule()).isEqualTo(ONE_AT_A_TIME));
    holder.close();

    assertCounted(s, 3, 1);
    assertThat(s.at(1000).calls("R", 2)).as("one borrowed pass arrived, not two").isEqualTo("PB");
  }

  @Test
  void borrowedPass_refusedByOpenBreaker_isGivenBack() {
    Scenario s = new Scenario();
    s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(FlowRule.qps("R", 2),
        BreakerScenariosTest.rule(CircuitBreakerRule.Strategy.ERROR_COUNT, 1, 0, 1, 10_000, 1000))));
    CircuitBreaker breaker = s.engine.breakers("R").get(0);
    assertThat(s.at(0).calls("R", 2)).isEqualTo("PP");
    s.at(700);
    breaker.forceOpen();

    assertThatThrownBy(() -> s.engine.resource("R").entryType(EntryType.IN).permits(1).prioritized().enter())
        .as("the borrowing call still meets the breaker, unlike in Sentinel")
        .isInstanceOf(RefusedException.Breaker.class);
    assertThat(s.sleeps).as("it waited for its borrowed pass first").containsExactly(300_000_000L);
    assertCounted(s, 2, 1);

    breaker.forceClosed();
    assertThat(s.at(1000).calls("R", 3)).as("the borrowed pass never arrived").isEqualTo("PPB");
  }

  @Test
  void immediatePass_refusedByLaterRule_givesItsPermitBack() {
    Scenario s = new Scenario();
    s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(FlowRule.qps("R", 3), ONE_AT_A_TIME)));
    Entry holder = s.at(0).engine.resource("R").entryType(EntryType.IN).enter();

    assertThatThrownBy(() -> s.engine.resource("R").entryType(EntryType.IN).enter()) // the QPS rule admits, then refused
        .isInstanceOfSatisfying(RefusedException.Flow.class,
            refused -> assertThat(refused.rule()).isEqualTo(ONE_AT_A_TIME));
    holder.close();

    assertThat(s.at(100).calls("R", 3)).as("3 per second, one spent").isEqualTo("PPB");
    assertCounted(s, 3, 2);
  }

  @Test
  void pacedSlot_refusedByLaterRule_goesToTheNextCaller() {
    Scenario s = new Scenario();
    s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(FlowRule.qps("R", 10).withShaping(FlowRule.Shaping.PACING)
        .withMaxQueueingTime(Duration.ofMillis(500)), ONE_AT_A_TIME)));
    Entry holder = s.at(0).engine.resource("R").entryType(EntryType.IN).enter(); // slot T0

    assertThatThrownBy(() -> s.engine.resource("R").entryType(EntryType.IN).enter()) // slot T0 + 100, then refused
        .isInstanceOf(RefusedException.Flow.class);
    holder.close();
    s.sleeps.clear();
    s.engine.resource("R").entryType(EntryType.IN).enter().close();

    assertThat(s.sleeps).as("the next caller's wait").containsExactly(100_000_000L);
    assertCounted(s, 2, 1);
  }
}
