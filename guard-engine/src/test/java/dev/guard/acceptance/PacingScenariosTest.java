package dev.guard.acceptance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import dev.guard.api.RefusedException;
import dev.guard.api.EntryType;
import dev.guard.api.rule.FlowRule;
import dev.guard.api.Entry;
import dev.guard.engine.GuardEngine;
import dev.guard.testkit.ManualClock;
import dev.guard.testsupport.Scenario;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Pacing, warm-up pacing and small counts (docs/SHAPING.md) through the engine: pacing and warm-up pacing decisions, written P(w)
 * for a pass after a wait of w ms (P(0) when the call did not wait) and B for a refusal.
 * Simultaneous calls are all decided at one clock value because {@link Scenario} records waits
 * instead of performing them.
 */
class PacingScenariosTest {

  private static FlowRule pacing(double count, Duration maxQueueing) {
    return FlowRule.qps("R", count).withShaping(FlowRule.Shaping.PACING)
        .withMaxQueueingTime(maxQueueing);
  }

  /** One call of {@code permits}; its outcome with the wait in whole ms. */
  private static String paced(Scenario s, int permits) {
    int before = s.sleeps.size();
    try (Entry ignored = s.engine.resource("R").entryType(EntryType.IN).permits(permits).enter()) {
      long waitNanos = s.sleeps.size() == before ? 0 : s.sleeps.get(before);
      return "P(" + waitNanos / 1_000_000 + ")";
    } catch (RefusedException refused) {
      assertThat(s.sleeps).as("a refused call never waits").hasSize(before);
      return "B";
    }
  }

  /** n simultaneous one-permit calls, outcomes separated by spaces. */
  private static String burst(Scenario s, int n) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < n; i++) {
      out.append(i == 0 ? "" : " ").append(paced(s, 1));
    }
    return out.toString();
  }

  @Test
  void pacing_burstAndLaterCalls_spacedByCostWithinQueueBound() {
    Scenario s = new Scenario();
    s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(pacing(10, Duration.ofMillis(500)))));

    assertThat(burst(s.at(0), 8)).isEqualTo("P(0) P(100) P(200) P(300) P(400) P(500) B B");
    assertThat(burst(s.at(550), 1)).isEqualTo("P(50)");
    assertThat(burst(s.at(600), 1)).isEqualTo("P(100)");
    assertThat(burst(s.at(1000), 1)).isEqualTo("P(0)");
    assertThat(burst(s.at(2000), 2)).isEqualTo("P(0) P(100)");
    assertThat(s.engine.stats("R").totalPass()).isEqualTo(11);
    assertThat(s.engine.stats("R").totalRefused()).isEqualTo(2);
    assertThat(s.engine.stats("R").concurrency()).isZero();
  }

  @Test
  void pacing_countZero_refusesEveryCall() {
    Scenario s = new Scenario();
    s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(pacing(0, Duration.ofMillis(500)))));

    assertThat(burst(s.at(0), 3)).isEqualTo("B B B");
    assertThat(burst(s.at(5000), 1)).isEqualTo("B");
  }

  @Test
  void pacing_zeroPermits_passesWithoutTouchingTheSchedule() {
    Scenario s = new Scenario();
    s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(pacing(0, Duration.ofMillis(500)))));
    assertThat(paced(s.at(0), 0)).isEqualTo("P(0)");

    s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(pacing(10, Duration.ofMillis(500)))));
    assertThat(paced(s, 1)).isEqualTo("P(0)");
    assertThat(paced(s, 0)).isEqualTo("P(0)");
    assertThat(paced(s, 1)).isEqualTo("P(100)");
  }

  @Test
  void warmUpPacing_cold_spacesAtTheColdRate() {
    Scenario s = new Scenario();
    s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(pacing(10, Duration.ofMillis(500))
        .withShaping(FlowRule.Shaping.PACING).withWarmUp(Duration.ofSeconds(10), 3))));

    assertThat(burst(s.at(0), 3)).isEqualTo("P(0) P(300) B");
    assertThat(burst(s.at(300), 1)).isEqualTo("P(300)");
  }

  @Test
  void pacing_count2000_spacesHalfAMillisecondExactly() {
    Scenario s = new Scenario();
    s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(pacing(2000, Duration.ofMillis(500)))));

    burst(s.at(0), 5);

    assertThat(s.sleeps).containsExactly(500_000L, 1_000_000L, 1_500_000L, 2_000_000L);
  }

  @Test
  void pacing_countBelowHalf_spacesTwoAndAHalfSeconds() {
    Scenario s = new Scenario();
    // Q8: Sentinel divides by round(0.4) = 0 while loading this rule
    assertThatCode(() -> s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(pacing(0.4, Duration.ofSeconds(3))))))
        .doesNotThrowAnyException();

    assertThat(burst(s.at(0), 3)).isEqualTo("P(0) P(2500) B");
    assertThat(s.sleeps).containsExactly(2_500_000_000L);
    assertThat(burst(s.at(5000), 1)).isEqualTo("P(0)");
    assertThat(burst(s.at(7499), 1)).isEqualTo("P(1)");
  }

  @Test
  void pacing_zeroQueue_spacesStrictlyAndNeverWaits() {
    Scenario s = new Scenario();
    s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(pacing(10, Duration.ZERO))));

    assertThat(burst(s.at(0), 2)).isEqualTo("P(0) B");
    assertThat(burst(s.at(99), 1)).isEqualTo("B");
    assertThat(burst(s.at(100), 2)).isEqualTo("P(0) B");
    assertThat(burst(s.at(250), 1)).isEqualTo("P(0)");
    assertThat(burst(s.at(349), 1)).isEqualTo("B");
    assertThat(s.sleeps).isEmpty();
  }
}
