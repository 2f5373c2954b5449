package dev.guard.acceptance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.guard.api.Entry;
import dev.guard.api.RefusedException;
import dev.guard.api.rule.AdaptiveConcurrencyRule;
import dev.guard.api.rule.CircuitBreakerRule;
import dev.guard.api.rule.RuleSet;
import dev.guard.api.rule.RuleState;
import dev.guard.engine.GuardedResource;
import dev.guard.testsupport.Scenario;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Adaptive concurrency limits through the engine (docs/BEHAVIOUR.md, "Adaptive concurrency"). */
class AdaptiveConcurrencyTest {

  private final Scenario s = new Scenario();
  private final GuardedResource r = s.engine.resource("R");

  private void declare(AdaptiveConcurrencyRule rule) {
    r.declare(List.of(rule));
  }

  private RuleState.AdaptiveConcurrencyState state() {
    return (RuleState.AdaptiveConcurrencyState) s.engine.ruleStates("R").get(0);
  }

  private List<Entry> enter(int n) {
    List<Entry> entries = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      entries.add(r.enterAsync());
    }
    return entries;
  }

  @Test
  void enter_atTheLimit_refusesWithTheLimitInForce() {
    declare(AdaptiveConcurrencyRule.of("R").withLimits(3, 1, 10));
    List<Entry> running = enter(3);

    assertThatThrownBy(r::enterAsync)
        .isInstanceOfSatisfying(RefusedException.AdaptiveConcurrency.class,
            refused -> assertThat(refused.limit()).isEqualTo(3));
    running.get(0).close();
    assertThat(r.enterAsync()).isNotNull();
    assertThat(s.engine.metricsTotals("R").refused(RefusedException.Kind.ADAPTIVE_CONCURRENCY))
        .isZero(); // the history reads whole seconds: nothing closed yet
  }

  @Test
  void refusals_areCountedUnderTheirKind() {
    declare(AdaptiveConcurrencyRule.of("R").withLimits(1, 1, 10));
    Entry running = r.enterAsync();
    for (int i = 0; i < 2; i++) {
      assertThatThrownBy(r::enterAsync).isInstanceOf(RefusedException.AdaptiveConcurrency.class);
    }
    running.close();
    s.at(2000);
    s.engine.metricsHistory("R");

    assertThat(s.engine.metricsTotals("R").refused(RefusedException.Kind.ADAPTIVE_CONCURRENCY))
        .isEqualTo(2);
    assertThat(s.engine.metricsTotals("R").adaptiveRefused()).isEqualTo(2);
  }

  @Test
  void gradient_callsThatQueue_lowerTheLimit_callsThatDoNot_raiseIt() {
    declare(AdaptiveConcurrencyRule.of("R").withLimits(40, 1, 100));
    for (int i = 0; i < 3; i++) {
      callsOf(40, 100);
    }
    int unqueued = state().limit();
    assertThat(unqueued).isGreaterThan(40);
    for (int i = 0; i < 3; i++) {
      callsOf(state().limit(), 300);
    }

    assertThat(state().limit()).isLessThan(unqueued);
    assertThat(state().baselineRtMs()).isEqualTo(100.0);
    assertThat(state().lastRtMs()).isEqualTo(300.0);
  }

  @Test
  void gradient_windowsThatDoNotUseHalfTheLimit_doNotRaiseIt() {
    declare(AdaptiveConcurrencyRule.of("R").withLimits(40, 1, 100));
    for (int i = 0; i < 3; i++) {
      callsOf(19, 100);
    }

    assertThat(state().limit()).isEqualTo(40);
  }

  @Test
  void aimd_failuresLowerTheLimit_cleanWindowsRaiseIt() {
    declare(AdaptiveConcurrencyRule.of("R").withLimits(20, 1, 100)
        .withAlgorithm(AdaptiveConcurrencyRule.Algorithm.AIMD));
    for (int i = 0; i < 3; i++) {
      callsOf(state().limit(), 100);
    }
    int clean = state().limit();
    assertThat(clean).isGreaterThan(20);
    for (int i = 0; i < 3; i++) {
      failingCallsOf(state().limit(), 100);
    }

    assertThat(state().limit()).isLessThan(clean);
  }

  @Test
  void limit_neverLeavesItsBounds() {
    declare(AdaptiveConcurrencyRule.of("R").withLimits(4, 3, 5)
        .withAlgorithm(AdaptiveConcurrencyRule.Algorithm.AIMD));
    for (int i = 0; i < 5; i++) {
      callsOf(state().limit(), 100);
    }
    assertThat(state().limit()).isEqualTo(5);
    for (int i = 0; i < 5; i++) {
      failingCallsOf(state().limit(), 100);
    }
    assertThat(state().limit()).isEqualTo(3);
  }

  @Test
  void laterRefusal_givesThePlaceBack() {
    r.declare(List.of(AdaptiveConcurrencyRule.of("R").withLimits(1, 1, 10),
        CircuitBreakerRule.errorCount("R", 0).withMinCalls(1)));
    Entry failing = r.enterAsync();
    failing.recordError(new IllegalStateException("down"));
    failing.close(); // the breaker opens

    assertThatThrownBy(r::enterAsync).isInstanceOf(RefusedException.Breaker.class);
    assertThat(state().inFlight()).isZero();
  }

  @Test
  void unchangedRule_keepsItsLimitAcrossAReload_aChangedOneStartsAgain() {
    AdaptiveConcurrencyRule rule = AdaptiveConcurrencyRule.of("R").withLimits(40, 1, 100);
    declare(rule);
    for (int i = 0; i < 3; i++) {
      callsOf(state().limit(), 100);
    }
    int found = state().limit();
    assertThat(found).isGreaterThan(40);
    s.engine.apply(RuleSet.of(rule, CircuitBreakerRule.errorRatio("R", 0.5)));
    assertThat(state().limit()).isEqualTo(found);

    s.engine.apply(RuleSet.of(rule.withWindow(Duration.ofMillis(200))));
    assertThat(state().limit()).isEqualTo(40);
  }

  @Test
  void secondRule_forOneResource_isRefused() {
    assertThatThrownBy(() -> s.engine.apply(RuleSet.of(AdaptiveConcurrencyRule.of("R"),
            AdaptiveConcurrencyRule.of("R").withLimits(5, 1, 10))))
        .hasMessageContaining("at most one adaptive concurrency rule");
  }

  /** {@code n} calls at once, each taking {@code rtMs} (at least the 100 ms window). */
  private void callsOf(int n, long rtMs) {
    List<Entry> entries = enter(n);
    s.clock.advanceMillis(rtMs);
    entries.forEach(Entry::close);
  }

  /** {@code n} calls at once, each failing after {@code rtMs}. */
  private void failingCallsOf(int n, long rtMs) {
    List<Entry> entries = enter(n);
    s.clock.advanceMillis(rtMs);
    entries.forEach(entry -> entry.recordError(new IllegalStateException("down")));
    entries.forEach(Entry::close);
  }
}
