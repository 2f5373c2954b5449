package dev.guard.acceptance;

import static dev.guard.acceptance.BreakerScenariosTest.rule;
import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.CircuitBreaker;
import dev.guard.api.EntryType;
import dev.guard.api.rule.CircuitBreakerRule;
import dev.guard.api.Entry;
import dev.guard.testsupport.Scenario;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every boundary of the breaker's state machine, one test each, on tumbling windows. */
class BreakerBoundariesTest {

  private static CircuitBreaker breaker(Scenario s) {
    return s.engine.breakers("R").get(0);
  }

  @Test
  void slowCall_rtEqualToTheThresholdIsNotSlow_oneMoreMillisecondIs() {
    Scenario s = new Scenario();
    s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(rule(CircuitBreakerRule.Strategy.SLOW_CALL_RATIO, 0.0, 50, 1, 10_000, 1000))));

    s.call("R", 50, false);
    assertThat(breaker(s).state()).isEqualTo(CircuitBreaker.State.CLOSED);
    s.call("R", 51, false);
    assertThat(breaker(s).state()).isEqualTo(CircuitBreaker.State.OPEN);
  }

  @Test
  void errorRatio_equalToTheThresholdDoesNotOpen_aboveDoes() {
    Scenario s = new Scenario();
    s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(rule(CircuitBreakerRule.Strategy.ERROR_RATIO, 0.5, 0, 2, 10_000, 1000))));

    s.call("R", 0, true);
    s.call("R", 0, false);
    assertThat(breaker(s).state()).as("1/2").isEqualTo(CircuitBreaker.State.CLOSED);
    s.call("R", 0, true);
    assertThat(breaker(s).state()).as("2/3").isEqualTo(CircuitBreaker.State.OPEN);
  }

  @Test
  void ratioThresholdOfOne_opensOnlyWhenEveryCallFailed() {
    Scenario s = new Scenario();
    s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(rule(CircuitBreakerRule.Strategy.ERROR_RATIO, 1.0, 0, 3, 10_000, 1000))));

    s.call("R", 0, false);
    s.call("R", 0, true);
    s.call("R", 0, true);
    s.call("R", 0, true);
    assertThat(breaker(s).state()).as("3/4").isEqualTo(CircuitBreaker.State.CLOSED);

    Scenario t = new Scenario();
    t.engine.apply(t.engine.ruleSet().withRulesOf("R", List.of(rule(CircuitBreakerRule.Strategy.ERROR_RATIO, 1.0, 0, 3, 10_000, 1000))));
    t.call("R", 0, true);
    t.call("R", 0, true);
    t.call("R", 0, true);
    assertThat(breaker(t).state()).as("3/3").isEqualTo(CircuitBreaker.State.OPEN);
  }

  @Test
  void errorCount_equalToTheThresholdDoesNotOpen_oneMoreDoes() {
    Scenario s = new Scenario();
    s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(rule(CircuitBreakerRule.Strategy.ERROR_COUNT, 3, 0, 1, 10_000, 1000))));

    for (int i = 0; i < 3; i++) {
      s.call("R", 0, true);
    }
    assertThat(breaker(s).state()).isEqualTo(CircuitBreaker.State.CLOSED);
    s.call("R", 0, true);
    assertThat(breaker(s).state()).isEqualTo(CircuitBreaker.State.OPEN);
  }

  @Test
  void minCalls_fewerCallsNeverOpen_andReachingThemOnAGoodCallOpens() {
    Scenario s = new Scenario();
    s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(rule(CircuitBreakerRule.Strategy.ERROR_RATIO, 0.5, 0, 4, 10_000, 1000))));

    s.call("R", 0, true);
    s.call("R", 0, true);
    s.call("R", 0, true);
    assertThat(breaker(s).state()).as("3 calls < 4").isEqualTo(CircuitBreaker.State.CLOSED);
    s.call("R", 0, false);
    assertThat(breaker(s).state()).as("3/4 on the fourth, good call").isEqualTo(CircuitBreaker.State.OPEN);
  }

  @Test
  void retry_refusedOneMillisecondBefore_admittedExactlyAtTheRetryTime() {
    Scenario s = new Scenario();
    s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(rule(CircuitBreakerRule.Strategy.ERROR_COUNT, 0, 0, 1, 10_000, 3000))));
    s.at(100).call("R", 0, true);

    assertThat(breaker(s).retryAfter()).isEqualTo(Duration.ofMillis(3000));
    assertThat(s.at(3099).call("R")).isEqualTo("B");
    assertThat(breaker(s).retryAfter()).isEqualTo(Duration.ofMillis(1));
    assertThat(s.at(3100).call("R")).isEqualTo("P");
    assertThat(breaker(s).state()).isEqualTo(CircuitBreaker.State.CLOSED);
  }

  @Test
  void openBreaker_retryTimePassed_readsOpenUntilACallProbes() {
    Scenario s = new Scenario();
    s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(rule(CircuitBreakerRule.Strategy.ERROR_COUNT, 0, 0, 1, 10_000, 1000))));
    s.call("R", 0, true);

    s.at(5000);
    assertThat(breaker(s).state()).isEqualTo(CircuitBreaker.State.OPEN);
    assertThat(breaker(s).retryAfter()).isZero();
  }

  @Test
  void lateCompletionWhileOpen_isCountedButDecidesNothing() {
    Scenario s = new Scenario();
    s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(rule(CircuitBreakerRule.Strategy.ERROR_COUNT, 0, 0, 1, 10_000, 1000))));
    Entry slow = s.engine.resource("R").enterAsync();
    s.call("R", 0, true);
    assertThat(breaker(s).state()).isEqualTo(CircuitBreaker.State.OPEN);

    slow.close();

    assertThat(breaker(s).state()).isEqualTo(CircuitBreaker.State.OPEN);
    assertThat(s.at(999).call("R")).isEqualTo("B");
  }

  @Test
  void halfOpen_aCallAdmittedBeforeIsNotTheProbe_onlyTheProbeDecides() {
    Scenario s = new Scenario();
    s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(rule(CircuitBreakerRule.Strategy.ERROR_COUNT, 0, 0, 1, 10_000, 1000))));
    Entry before = s.engine.resource("R").enterAsync();
    s.call("R", 0, true);
    s.at(1000);
    Entry probe = s.engine.resource("R").enterAsync();
    assertThat(breaker(s).state()).isEqualTo(CircuitBreaker.State.HALF_OPEN);

    before.recordError(new IllegalStateException("late failure"));
    before.close();
    assertThat(breaker(s).state()).isEqualTo(CircuitBreaker.State.HALF_OPEN);
    probe.close();
    assertThat(breaker(s).state()).isEqualTo(CircuitBreaker.State.CLOSED);
  }

  @Test
  void closing_emptiesTheWindow_soEarlierFailuresNoLongerCount() {
    Scenario s = new Scenario();
    s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(rule(CircuitBreakerRule.Strategy.ERROR_COUNT, 1, 0, 1, 10_000, 1000))));
    s.call("R", 0, true);
    s.call("R", 0, true);
    s.at(1000).call("R", 0, false);
    assertThat(breaker(s).state()).isEqualTo(CircuitBreaker.State.CLOSED);

    s.call("R", 0, true);

    assertThat(breaker(s).state()).as("1 error since closing").isEqualTo(CircuitBreaker.State.CLOSED);
  }

  @Test
  void refusedCall_isNeverCountedByTheBreaker() {
    Scenario s = new Scenario();
    s.engine.apply(s.engine.ruleSet().withRulesOf("R", List.of(rule(CircuitBreakerRule.Strategy.ERROR_COUNT, 0, 0, 1, 10_000, 1000))));
    s.call("R", 0, true);
    for (int i = 0; i < 5; i++) {
      s.call("R", EntryType.IN);
    }

    s.at(1000).call("R", 0, false);

    assertThat(breaker(s).state()).isEqualTo(CircuitBreaker.State.CLOSED);
    assertThat(s.engine.stats("R").totalRefused()).isEqualTo(5);
  }
}
